import { describe, expect, test } from 'bun:test'
import { FatalError, NodeUnreachableError, nodeUnreachable, StackError, walk } from './errors.ts'

describe('a chain of causes', () => {
  const socket = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
  const library = new Error('HTTP request failed', { cause: socket })
  const ours = new NodeUnreachableError('the node cannot be reached', { cause: library })

  test('the cause is kept whole, and walk() with nothing to match finds the deepest', () => {
    expect(ours.cause).toBe(library)
    expect(ours.walk()).toBe(socket)
    expect(new StackError('alone').walk()).toBeInstanceOf(StackError)
    expect(new StackError('alone').cause).toBeUndefined()
  })

  test('walk(match) finds the first link that matches, this error included, else null', () => {
    expect(ours.walk((error) => (error as { code?: string }).code === 'ECONNREFUSED')).toBe(socket)
    expect(ours.walk((error) => error instanceof Error)).toBe(ours)
    expect(ours.walk((error) => error instanceof FatalError)).toBeNull()
    // Any thrown value walks, a library's error as much as ours.
    expect(walk(library)).toBe(socket)
    expect(walk('a string')).toBe('a string')
  })

  test('a chain that loops ends', () => {
    const a = new Error('a')
    const b = new Error('b', { cause: a })
    a.cause = b
    expect(walk(a)).toBe(b)
    expect(walk(a, () => false)).toBeNull()
  })

  test('details stay beside the message; nodeUnreachable keeps the error it was given', () => {
    expect(new StackError('refused', { details: { retryIn: 5 } }).details).toEqual({ retryIn: 5 })
    expect(new StackError('refused').details).toEqual({})
    const wrapped = nodeUnreachable(library)
    expect(wrapped.message).toBe('the node cannot be reached: HTTP request failed')
    expect(wrapped.walk()).toBe(socket)
  })
})
