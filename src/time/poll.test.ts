import { expect, test } from 'bun:test'
import { pollUntil } from './poll.ts'

test('gives the first answer that meets the condition, asking again at the interval', async () => {
  let asked = 0
  const started = Date.now()
  const polled = await pollUntil(() => ++asked, (count) => count >= 3, { timeoutMs: 5000, intervalMs: 30 })
  expect(polled).toEqual({ value: 3, met: true })
  expect(Date.now() - started).toBeGreaterThanOrEqual(55)
})

test('past the deadline it gives the last answer, unmet, after one more ask', async () => {
  let asked = 0
  const started = Date.now()
  const polled = await pollUntil(async () => ++asked, () => false, { timeoutMs: 100, intervalMs: 20 })
  expect(polled.met).toBe(false)
  expect(polled.value).toBe(asked)
  expect(asked).toBeGreaterThan(2)
  expect(Date.now() - started).toBeGreaterThanOrEqual(100)
})

test('an answer already there is given at once', async () => {
  const started = Date.now()
  expect(await pollUntil(() => 'ready', (value) => value === 'ready', { timeoutMs: 60_000, intervalMs: 60_000 })).toEqual({ value: 'ready', met: true })
  // Far below one interval, and far above any stall of a loaded machine.
  expect(Date.now() - started).toBeLessThan(10_000)
})

test('a poll whose waits come from a function (a backoff) takes each in turn, and none runs past the deadline', async () => {
  const waits: number[] = []
  let asked = 0
  const started = Date.now()
  const { met } = await pollUntil(
    () => ++asked,
    () => false,
    {
      timeoutMs: 120,
      intervalMs: () => {
        const wait = waits.length < 3 ? 10 * 2 ** waits.length : 60_000
        waits.push(wait)
        return wait
      },
    },
  )
  expect(met).toBe(false)
  // 10, 20, 40, then a minute cut to what is left of 120 ms: far below the minute, and far above
  // any stall of a loaded machine.
  expect(waits.slice(0, 3)).toEqual([10, 20, 40])
  expect(Date.now() - started).toBeLessThan(10_000)
  expect(asked).toBeGreaterThanOrEqual(4)
})
