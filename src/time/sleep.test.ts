import { expect, test } from 'bun:test'
import { sleep } from './sleep.ts'

test('a sleep ends when its signal aborts, and at once when the signal has aborted already', async () => {
  const abort = new AbortController()
  const started = performance.now()
  const sleeping = sleep(60_000, abort.signal)
  setTimeout(() => abort.abort(), 10)
  await sleeping
  // A loop that checks its signal, then sleeps, must not sleep the whole time after a stop.
  await sleep(60_000, abort.signal)
  // Far below either sleep, and far above any stall of a loaded machine.
  expect(performance.now() - started).toBeLessThan(10_000)
})

test('a sleep without an abort lasts its time', async () => {
  const started = performance.now()
  await sleep(30, new AbortController().signal)
  expect(performance.now() - started).toBeGreaterThanOrEqual(25)
})
