import type { Address, Hex } from 'viem'

/**
 * The socket protocol (docs/arcade.md "Socket protocol"), as the arcade writes it: every frame is a JSON
 * text object with a `type`. This file holds the shapes of what the arcade sends, the frames
 * themselves and the close codes; inbound.ts reads what a client sends.
 */

/** A value of a decoded event argument: integers as decimal strings, never JSON numbers. */
export type WireValue = string | boolean | WireValue[] | { [key: string]: WireValue }

/** An applied mini-block, as `head` frames and `hello` carry it. */
export type HeadPayload = {
  number: number
  block: number
  /** Microseconds since the epoch, a decimal number (docs/arcade.md). */
  timestamp_us: number
  txCount: number
}

/** A decoded log of a contract bound to the room. */
export type EventPayload = {
  contract: Address
  name: string
  args: Record<string, WireValue>
  txHash: Hex
  logIndex: number
  block: number
  miniBlock: number
}

/**
 * The frames the arcade sends, as the JSON text put on the wire. A frame meant for many sockets is
 * written once and the same string is sent to each.
 */
export const frames = {
  hello: (room: string, head: HeadPayload | null, sockets: number, events: readonly string[], recent: readonly EventPayload[]) =>
    JSON.stringify({ type: 'hello', room, head, sockets, events, recent }),
  head: (head: HeadPayload) => JSON.stringify({ type: 'head', ...head }),
  event: (event: EventPayload) => JSON.stringify({ type: 'event', ...event }),
  presence: (room: string, sockets: number) => JSON.stringify({ type: 'presence', room, sockets }),
  pong: (id: string | number | undefined) => JSON.stringify(id === undefined ? { type: 'pong' } : { type: 'pong', id }),
  subscribed: (events: Iterable<string>) => JSON.stringify({ type: 'subscribed', events: [...events] }),
  error: (message: string) => JSON.stringify({ type: 'error', error: message }),
}

/** Why the arcade closed a socket. Each is counted in /api/stats under `ejections`. */
export type EjectionCause = 'frameTooLarge' | 'rateLimited' | 'backlog'

/** Close codes and reasons the arcade sends; 1009 is sent by Bun itself, before any handler runs. */
export const CLOSE: Record<EjectionCause, { code: number; reason: string }> = {
  frameTooLarge: { code: 1009, reason: 'frame too large' },
  rateLimited: { code: 1008, reason: 'message rate exceeded' },
  backlog: { code: 4008, reason: 'too far behind' },
}
