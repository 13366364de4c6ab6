import { expect, test } from 'bun:test'
import { sleep } from './sleep.ts'

test('a sleep ends when its signal aborts, and at once when the signal has aborted already', async () => {
  const abort = new AbortController()
  const started = performance.now()
  const sleeping = sleep(5000, abort.signal)
  setTimeout(() => abort.abort(), 10)
  await sleeping
  // A loop that checks its signal, then sleeps, must not sleep the whole time after a stop.
  await sleep(5000, abort.signal)
  expect(performance.now() - started).toBeLessThan(1000)
})

test('a sleep without an abort lasts its time', async () => {
  const started = performance.now()
  await sleep(30, new AbortController().signal)
  expect(performance.now() - started).toBeGreaterThanOrEqual(25)
})
