import { expect, test } from 'bun:test'
import { ethUsdFeed, feedPrice, type FeedReading } from './ethUsdFeed.ts'

const reading = (overrides: Partial<FeedReading> = {}): FeedReading => ({ answer: 300_012_345_678n, decimals: 8, updatedAt: 1000n, chainTime: 1000n, ...overrides })

test("the feed's answer scaled by its decimals", () => {
  expect(feedPrice(reading(), 3600)).toEqual({ numerator: 300_012_345_678n, denominator: 10n ** 8n })
  expect(feedPrice(reading({ decimals: 18, answer: 3000n * 10n ** 18n }), 3600)).toEqual({ numerator: 3000n * 10n ** 18n, denominator: 10n ** 18n })
})

test('null, never 0: no reading, an answer not positive, none written yet, older than the limit in chain time', () => {
  expect(feedPrice(null, 3600)).toBeNull()
  expect(feedPrice(reading({ answer: 0n }), 3600)).toBeNull()
  expect(feedPrice(reading({ answer: -1n }), 3600)).toBeNull()
  expect(feedPrice(reading({ updatedAt: 0n }), 3600)).toBeNull()
  expect(feedPrice(reading({ chainTime: 1000n + 3600n }), 3600)).not.toBeNull()
  expect(feedPrice(reading({ chainTime: 1000n + 3601n }), 3600)).toBeNull()
})

test('no feed configured: null without asking any node', async () => {
  const read = ethUsdFeed({ rpcUrl: 'http://127.0.0.1:9', feed: null, maxAgeSeconds: 3600 })
  expect(await read()).toBeNull()
})

test('a node that cannot be reached: null, not an error', async () => {
  const read = ethUsdFeed({ rpcUrl: 'http://127.0.0.1:9', feed: '0x959922bE3CAee4b8Cd9a407cc3ac1C251C2007B1', maxAgeSeconds: 3600, timeoutMs: 500 })
  expect(await read()).toBeNull()
})
