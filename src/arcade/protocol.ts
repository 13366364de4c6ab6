import type { Address, Hex } from 'viem'

/**
 * The socket protocol (README "Arcade socket protocol"): every frame is a JSON text object with
 * a `type`. This file holds the shapes; frames.ts writes them and inbound.ts reads the client's.
 */

/** A value of a decoded event argument: integers as decimal strings, never JSON numbers. */
export type WireValue = string | boolean | WireValue[] | { [key: string]: WireValue }

/** An applied mini-block, as `head` frames and `hello` carry it. */
export type HeadPayload = {
  number: number
  block: number
  /** Microseconds since the epoch, a decimal number (spec 03 "Shared conventions"). */
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

/** What a client may send. */
export type Inbound =
  | { type: 'ping'; id?: string | number }
  | { type: 'subscribe' | 'unsubscribe'; events: string[] }

/** Why the arcade closed a socket. Each is counted in /api/stats under `ejections`. */
export type EjectionCause = 'frameTooLarge' | 'rateLimited' | 'backlog'

/** Close codes and reasons the arcade sends; 1009 is sent by Bun itself, before any handler runs. */
export const CLOSE: Record<EjectionCause, { code: number; reason: string }> = {
  frameTooLarge: { code: 1009, reason: 'frame too large' },
  rateLimited: { code: 1008, reason: 'message rate exceeded' },
  backlog: { code: 4008, reason: 'too far behind' },
}
