import { describe, expect, test } from 'bun:test'
import { fromThisMachine } from './thisMachine.ts'

const none = new Headers()

describe('a request from this machine', () => {
  test('a loopback peer, IPv4 or IPv6, with no forwarding header', () => {
    for (const peer of ['127.0.0.1', '127.1.2.3', '::1']) expect([peer, fromThisMachine(none, peer, '127.0.0.1')]).toEqual([peer, true])
  })

  test('the address the service listens on is this machine; a wildcard host is not an address', () => {
    expect(fromThisMachine(none, '192.0.2.2', '192.0.2.2')).toBe(true)
    expect(fromThisMachine(none, 'fd00::2', '[FD00::2]')).toBe(true)
    expect(fromThisMachine(none, '192.0.2.7', '192.0.2.2')).toBe(false)
    for (const host of ['0.0.0.0', '::', '[::]']) expect(fromThisMachine(none, '192.0.2.2', host)).toBe(false)
  })

  test('any other peer is not', () => {
    for (const peer of ['203.0.113.7', '10.0.0.1', '::2', '128.0.0.1', 'unknown', '']) expect([peer, fromThisMachine(none, peer, '127.0.0.1')]).toEqual([peer, false])
  })

  test('a forwarded request is never, though a proxy on this machine is its peer', () => {
    for (const [name, value] of [['x-forwarded-for', '127.0.0.1'], ['X-Forwarded-For', ''], ['forwarded', 'for=127.0.0.1']] as const) {
      expect(fromThisMachine(new Headers({ [name]: value }), '127.0.0.1', '127.0.0.1')).toBe(false)
    }
  })
})
