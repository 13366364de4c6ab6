/**
 * Resolves after `ms`, or as soon as `signal` aborts (at once if it has already): a loop that
 * sleeps between its turns stops promptly, even when the stop came while it was busy. Never rejects.
 */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })
