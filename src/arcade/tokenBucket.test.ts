import { expect, test } from 'bun:test'
import { TokenBucket } from './tokenBucket.ts'

test('a burst is allowed at once, then the rate refills it', () => {
  const bucket = new TokenBucket(20, 40, 0)
  for (let index = 0; index < 40; index++) expect(bucket.take(0)).toBe(true)
  expect(bucket.take(0)).toBe(false)
  // 20 per second: one token every 50 ms.
  expect(bucket.take(49)).toBe(false)
  expect(bucket.take(50)).toBe(true)
  expect(bucket.take(50)).toBe(false)
})

test('refilling never passes the burst', () => {
  const bucket = new TokenBucket(20, 40, 0)
  for (let index = 0; index < 40; index++) bucket.take(60_000)
  expect(bucket.take(60_000)).toBe(false)
})

test('a steady sender under the rate is never refused', () => {
  const bucket = new TokenBucket(20, 40, 0)
  for (let ms = 0; ms < 10_000; ms += 60) expect(bucket.take(ms)).toBe(true)
})
