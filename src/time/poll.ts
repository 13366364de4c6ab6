/** The last answer of a poll, and whether it met the condition before the deadline. */
export type Polled<T> = { value: T; met: boolean }

/**
 * Asks `probe` every `intervalMs` until its answer meets `met`, or `timeoutMs` has passed; gives
 * the last answer either way, so that a caller can say what it was still waiting for. The probe
 * is always asked once, and once more after the deadline has passed before the poll gives up:
 * a slow probe is never cut off with a stale answer. `intervalMs` may be a function giving each
 * wait in turn (a `Backoff`'s `fail`, for polls that start quick and slow down); no wait runs
 * past the deadline.
 */
export async function pollUntil<T>(
  probe: () => T | Promise<T>,
  met: (value: T) => boolean,
  options: { timeoutMs: number; intervalMs: number | (() => number) },
): Promise<Polled<T>> {
  const deadline = Date.now() + options.timeoutMs
  const { intervalMs } = options
  for (;;) {
    const value = await probe()
    if (met(value)) return { value, met: true }
    const left = deadline - Date.now()
    if (left < 0) return { value, met: false }
    await Bun.sleep(Math.min(typeof intervalMs === 'number' ? intervalMs : intervalMs(), left + 1))
  }
}
