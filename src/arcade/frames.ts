import type { EventPayload, HeadPayload } from './protocol.ts'

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
