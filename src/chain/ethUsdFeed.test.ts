import { expect, test } from 'bun:test'
import { encodeFunctionData, encodeFunctionResult, type Hex } from 'viem'
import { pollUntil } from '../time/poll.ts'
import { aggregatorV3Abi, ethUsdFeed, feedPrice, type FeedReading } from './ethUsdFeed.ts'

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

/**
 * A node that answers the feed's batch with `answer` (8 decimals, written at chain time), after
 * `delayMs`, and not before `held` (when set) has resolved.
 */
function fakeNode(state: { answer: bigint; delayMs: number; held?: Promise<void> }) {
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      const calls = (await request.json()) as Array<{ id: number; method: string; params: Array<{ data?: Hex }> }>
      await Bun.sleep(state.delayMs)
      await state.held
      const answer = (call: (typeof calls)[number]) => {
        if (call.method === 'eth_getBlockByNumber') return { timestamp: '0x3e8' }
        const latest = call.params[0]!.data === encodeFunctionData({ abi: aggregatorV3Abi, functionName: 'latestRoundData' })
        return latest
          ? encodeFunctionResult({ abi: aggregatorV3Abi, functionName: 'latestRoundData', result: [1n, state.answer, 1000n, 1000n, 1n] })
          : encodeFunctionResult({ abi: aggregatorV3Abi, functionName: 'decimals', result: 8 })
      }
      return Response.json(calls.map((call) => ({ jsonrpc: '2.0', id: call.id, result: answer(call) })))
    },
  })
}

test('one reading serves a second; then a slow node keeps no request waiting while a recent reading stands', async () => {
  const state: Parameters<typeof fakeNode>[0] = { answer: 300_000_000_000n, delayMs: 0 }
  const node = fakeNode(state)
  let now = 1000
  try {
    const read = ethUsdFeed({ rpcUrl: `http://127.0.0.1:${node.port}`, feed: '0x959922bE3CAee4b8Cd9a407cc3ac1C251C2007B1', maxAgeSeconds: 3600, keptMs: 100, clock: () => now })
    expect(await read()).toEqual({ numerator: 300_000_000_000n, denominator: 10n ** 8n })
    state.answer = 310_000_000_000n
    now += 99
    expect((await read())!.numerator).toBe(300_000_000_000n)
    now += 21
    // The node holds its answer until let go: a read that waited for it would not come back.
    const { promise: held, resolve: letGo } = Promise.withResolvers<void>()
    state.held = held
    expect((await read())!.numerator).toBe(300_000_000_000n)
    expect((await read())!.numerator).toBe(300_000_000_000n)
    // Let go, the reading in flight lands, and is the answer from then on.
    letGo()
    const landed = await pollUntil(async () => (await read())!.numerator, (numerator) => numerator === 310_000_000_000n, { timeoutMs: 10_000, intervalMs: 10 })
    expect(landed.met).toBe(true)
    expect((await read())!.numerator).toBe(310_000_000_000n)
    // Five times its age, a reading answers no more: the request waits for the next one.
    now += 500
    state.answer = 320_000_000_000n
    state.delayMs = 100
    const waited = performance.now()
    expect((await read())!.numerator).toBe(320_000_000_000n)
    expect(performance.now() - waited).toBeGreaterThanOrEqual(90)
  } finally {
    node.stop(true)
  }
})
