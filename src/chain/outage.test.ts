import { expect, test } from 'bun:test'
import { NodeUnreachableError } from '../errors.ts'
import { NODE_DOWN_FOR_MS, NodeOutage } from './outage.ts'

const unreachable = () => Promise.reject(new NodeUnreachableError('the node cannot be reached: ECONNREFUSED'))

test('after a read that could not reach the node, reads skip it for two seconds; then it is asked again', async () => {
  let now = 1000
  const outage = new NodeOutage(() => now)
  let asked = 0
  const read = () => (asked++, Promise.resolve('answer'))
  expect(await outage.read(read)).toBe('answer')
  expect(outage.down).toBe(false)
  await expect(outage.read(unreachable)).rejects.toBeInstanceOf(NodeUnreachableError)
  expect(outage.down).toBe(true)
  now += NODE_DOWN_FOR_MS - 1
  await expect(outage.read(read)).rejects.toBeInstanceOf(NodeUnreachableError)
  expect(asked).toBe(1)
  now += 1
  expect(await outage.read(read)).toBe('answer')
  expect(asked).toBe(2)
})

test("the node's own error is an answer: it ends an outage and starts none", async () => {
  let now = 1000
  const outage = new NodeOutage(() => now)
  outage.failed()
  now += NODE_DOWN_FOR_MS
  await expect(outage.read(() => Promise.reject(new Error('execution reverted')))).rejects.toThrow('execution reverted')
  expect(outage.down).toBe(false)
  outage.failed()
  outage.reached()
  expect(outage.down).toBe(false)
})
