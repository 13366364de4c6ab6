import { expect, test } from 'bun:test'
import { blockWork, Pacer } from './pacer.ts'

const bounds = { maxBlocks: 100, maxConcurrency: 4, targetMs: 2000, maxBytes: 1_000_000 }
const emptyBlocks = (count: number) => Array.from({ length: count }, () => blockWork(0))
const busyBlocks = (count: number, txs = 500) => Array.from({ length: count }, () => blockWork(txs))

test('starts small: one request at a time, a few blocks, and always at least one block however heavy', () => {
  const pacer = new Pacer(bounds)
  expect(pacer.concurrency).toBe(1)
  expect(pacer.take(emptyBlocks(100))).toBe(16)
  expect(pacer.take(busyBlocks(10))).toBe(1)
  expect(pacer.take(busyBlocks(3, 100_000))).toBe(1)
})

test('grows while answers come back fast, up to the configured bounds', () => {
  const pacer = new Pacer(bounds)
  for (let round = 0; round < 20; round++) {
    const count = pacer.take(emptyBlocks(1000))
    for (let request = 0; request < pacer.concurrency; request++) pacer.answered(count * blockWork(0), 50, 10_000)
  }
  expect(pacer.take(emptyBlocks(1000))).toBe(100)
  expect(pacer.concurrency).toBe(4)
})

test('a late answer sizes the next requests by the rate it measured; a very late one also halves the requests in flight', () => {
  const pacer = new Pacer(bounds)
  for (let round = 0; round < 20; round++) pacer.answered(pacer.state().workPerRequest, 100, 1000)
  expect(pacer.concurrency).toBe(4)
  const work = pacer.state().workPerRequest
  // Twice the target: half the work, as many requests (a busy node, not an overloaded one).
  pacer.answered(work, 4000, 1000)
  expect(pacer.state().workPerRequest).toBe(Math.floor(work / 2))
  expect(pacer.concurrency).toBe(4)
  // Five times the target: a fifth of the work, and half the requests.
  const smaller = pacer.state().workPerRequest
  pacer.answered(smaller, 10_000, 1000)
  expect(pacer.state().workPerRequest).toBe(Math.floor(smaller / 5))
  expect(pacer.concurrency).toBe(2)
  // 500-transaction blocks at 0.36 s each: a request is cut to what the node does in 2 s.
  const perBlock = 360
  const slow = new Pacer(bounds)
  for (let round = 0; round < 10; round++) {
    const count = slow.take(busyBlocks(100))
    slow.answered(count * blockWork(500), count * perBlock, 1000)
  }
  const count = slow.take(busyBlocks(100))
  expect(count * perBlock).toBeLessThanOrEqual(2000)
  expect(count).toBeGreaterThanOrEqual(2)
})

test('a timeout halves the work and the requests in flight; an oversized answer halves the work', () => {
  const pacer = new Pacer(bounds)
  for (let round = 0; round < 20; round++) pacer.answered(pacer.state().workPerRequest, 100, 1000)
  const before = pacer.state()
  pacer.timedOut()
  expect(pacer.state().workPerRequest).toBe(Math.floor(before.workPerRequest / 2))
  expect(pacer.concurrency).toBe(2)
  expect(pacer.state().timeouts).toBe(1)
  const work = pacer.state().workPerRequest
  pacer.answered(work, 100, 2_000_000)
  expect(pacer.state().workPerRequest).toBe(Math.floor(work / 2))
  expect(pacer.state().oversized).toBe(1)
})

test('a short request that came back fast proves nothing about a full one: the work does not grow', () => {
  const pacer = new Pacer(bounds)
  const start = pacer.state().workPerRequest
  pacer.answered(blockWork(0), 5, 100)
  expect(pacer.state().workPerRequest).toBe(start)
})
