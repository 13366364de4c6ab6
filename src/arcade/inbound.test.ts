import { expect, test } from 'bun:test'
import { InboundError, parseInbound } from './inbound.ts'

test('ping, with or without an id, and subscriptions', () => {
  expect(parseInbound({ type: 'ping' })).toEqual({ type: 'ping' })
  expect(parseInbound({ type: 'ping', id: 'a1' })).toEqual({ type: 'ping', id: 'a1' })
  expect(parseInbound({ type: 'subscribe', events: ['FlipSettled'] })).toEqual({ type: 'subscribe', events: ['FlipSettled'] })
  expect(parseInbound({ type: 'unsubscribe', events: ['Staked'], extra: 1 })).toMatchObject({ type: 'unsubscribe', events: ['Staked'] })
})

test('anything else is an InboundError with a message for the client', () => {
  const cases: Array<[unknown, string]> = [
    ['hello', 'a frame is a JSON object'],
    [123, 'a frame is a JSON object'],
    [[1, 2], 'a frame is a JSON object'],
    [Buffer.from('x'), 'a frame is a JSON object'],
    [{}, 'unknown frame type null'],
    [{ type: 'bet' }, 'unknown frame type "bet"'],
    [{ type: 'ping', id: { nested: true } }, 'a ping takes an optional "id"'],
    [{ type: 'subscribe' }, 'a subscribe takes "events"'],
    [{ type: 'unsubscribe', events: [] }, 'an unsubscribe'.slice(3)],
  ]
  for (const [message, text] of cases) {
    expect(() => parseInbound(message)).toThrow(InboundError)
    expect(() => parseInbound(message)).toThrow(text)
  }
})
