import { describe, expect, test } from 'bun:test'
import { clientAddress } from './clientAddress.ts'

describe('client address', () => {
  test('with no trusted hop the socket peer is the client, whatever the header says', () => {
    expect(clientAddress('203.0.113.9', '127.0.0.1', 0)).toBe('127.0.0.1')
    expect(clientAddress(null, '10.1.2.3', 0)).toBe('10.1.2.3')
  })

  test('one trusted hop: the right-hand end of X-Forwarded-For', () => {
    expect(clientAddress('198.51.100.1, 203.0.113.9', '127.0.0.1', 1)).toBe('203.0.113.9')
    // The left-hand entry is whatever the client wrote: a forged one is ignored.
    expect(clientAddress('1.1.1.1,  203.0.113.9 ', '127.0.0.1', 1)).toBe('203.0.113.9')
  })

  test('two trusted hops: the second entry from the right', () => {
    expect(clientAddress('6.6.6.6, 203.0.113.9, 10.0.0.2', '10.0.0.3', 2)).toBe('203.0.113.9')
  })

  test('a chain shorter than the hops falls back to its left-hand end', () => {
    expect(clientAddress('203.0.113.9', '10.0.0.3', 3)).toBe('203.0.113.9')
  })

  test('behind a proxy that does not append, every caller shares the proxy address', () => {
    expect(clientAddress(null, '10.0.0.3', 1)).toBe('10.0.0.3')
    expect(clientAddress(' , ', '10.0.0.3', 1)).toBe('10.0.0.3')
  })

  test('addresses are normalised: ports, brackets, IPv4-mapped IPv6, case', () => {
    expect(clientAddress('203.0.113.9:4711', null, 1)).toBe('203.0.113.9')
    expect(clientAddress('[2001:DB8::1]:443', null, 1)).toBe('2001:db8::1')
    expect(clientAddress(null, '::ffff:127.0.0.1', 0)).toBe('127.0.0.1')
    expect(clientAddress(null, null, 0)).toBe('unknown')
  })
})
