import { describe, expect, test } from 'bun:test'
import { OperatorNonces } from './nonces.ts'

describe('the operator’s nonces', () => {
  test('concurrent drips take consecutive nonces from the node’s count, never behind it', () => {
    const nonces = new OperatorNonces()
    expect([nonces.take(7), nonces.take(7), nonces.take(7)]).toEqual([7, 8, 9])
    // The node counts further than this process knew (another signer of the key): its count wins.
    expect(nonces.take(20)).toBe(20)
  })

  test('a nonce that went out in no transaction is taken again, or the node decides', () => {
    const nonces = new OperatorNonces()
    const [a, b] = [nonces.take(3), nonces.take(3)]
    nonces.unused(b)
    expect(nonces.take(3)).toBe(b)
    nonces.unused(a) // not the last one handed out: a gap the node's count must close
    expect(nonces.take(3)).toBe(3)
  })

  test('sends that reach the node out of order are no sign of a node that forgot', () => {
    const nonces = new OperatorNonces()
    const [first, second] = [nonces.take(10), nonces.take(10)]
    // The second arrives first: the node queues it behind the first, and counts only 10 so far.
    nonces.sent(second)
    const before = nonces.countedSoFar
    expect(nonces.follows(10, before)).toBe(true)
    nonces.sent(first)
    expect(nonces.countedSoFar).toBe(11)
    expect(nonces.follows(12, nonces.countedSoFar)).toBe(true)
  })

  test('a node whose count falls below what it had counted forgot: the counter starts again from it', () => {
    const nonces = new OperatorNonces()
    for (let sent = 0; sent < 3; sent++) nonces.sent(nonces.take(5))
    expect(nonces.countedSoFar).toBe(7)
    // An evm_revert: the node is back at 5.
    expect(nonces.follows(5, nonces.countedSoFar)).toBe(false)
    expect(nonces.take(5)).toBe(5)
    expect(nonces.countedSoFar).toBe(4)
  })
})
