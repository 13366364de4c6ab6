import { Type as T } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { InvalidInputError } from '../errors.ts'

/** What a client may send (docs/arcade.md "Socket protocol", client to server). */
export type Inbound =
  | { type: 'ping'; id?: string | number }
  | { type: 'subscribe' | 'unsubscribe'; events: string[] }

const Ping = T.Object({ type: T.Literal('ping'), id: T.Optional(T.Union([T.String({ maxLength: 64 }), T.Number()])) })
const Subscription = T.Object({
  type: T.Union([T.Literal('subscribe'), T.Literal('unsubscribe')]),
  events: T.Array(T.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 64 }),
})

/** A client frame the arcade cannot act on; the message goes back in an `error` frame. */
export class InboundError extends InvalidInputError {
  override name = 'InboundError'
}

/**
 * Reads a client frame. Elysia has already parsed JSON text into a value; anything that is not
 * one of the known objects is an InboundError. Unknown extra keys are ignored, as callers are
 * told to ignore ours.
 */
export function parseInbound(message: unknown): Inbound {
  if (typeof message !== 'object' || message === null || Array.isArray(message) || Buffer.isBuffer(message)) {
    throw new InboundError('a frame is a JSON object with a "type"')
  }
  const type = (message as { type?: unknown }).type
  if (type === 'ping') {
    if (!Value.Check(Ping, message)) throw new InboundError('a ping takes an optional "id": a string of up to 64 characters or a number')
    return message as Inbound
  }
  if (type === 'subscribe' || type === 'unsubscribe') {
    if (!Value.Check(Subscription, message)) throw new InboundError(`a ${type} takes "events": a list of 1 to 64 event names`)
    return message as Inbound
  }
  throw new InboundError(`unknown frame type ${JSON.stringify(type ?? null)}: expected "ping", "subscribe" or "unsubscribe"`)
}
