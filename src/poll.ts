/** The last answer of a poll, and whether it met the condition before the deadline. */
export type Polled<T> = { value: T; met: boolean }

/**
 * Asks `probe` every `intervalMs` until its answer meets `met`, or `timeoutMs` has passed; gives
 * the last answer either way, so that a caller can say what it was still waiting for. The probe
 * is always asked once, and once more after the deadline has passed before the poll gives up:
 * a slow probe is never cut off with a stale answer.
 */
export async function pollUntil<T>(probe: () => T | Promise<T>, met: (value: T) => boolean, options: { timeoutMs: number; intervalMs: number }): Promise<Polled<T>> {
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    const value = await probe()
    if (met(value)) return { value, met: true }
    if (Date.now() > deadline) return { value, met: false }
    await Bun.sleep(options.intervalMs)
  }
}
