/**
 * Waits between tries that double from `firstMs` and stop growing at `maxMs`: a failure that lasts
 * is tried again less and less often, never less often than every `maxMs`. Counts the tries that
 * failed in a row and when the first of them did, for whoever reports the retries.
 */
export class Backoff {
  /** Tries that failed since the last success (or since the start). */
  attempts = 0
  /** When the first of those failed (ms since the epoch); null while none has. */
  since: number | null = null
  /** The wait the last failure was given; 0 before any. */
  nextInMs = 0

  constructor(
    readonly firstMs: number,
    readonly maxMs: number,
  ) {}

  /** One more try failed (at `now`): gives how long to wait before the next. */
  fail(now = Date.now()): number {
    this.attempts++
    this.since ??= now
    this.nextInMs = doublingDelay(this.attempts, this.firstMs, this.maxMs)
    return this.nextInMs
  }

  /** A try succeeded: the next failure waits `firstMs` again. */
  reset(): void {
    this.attempts = 0
    this.since = null
    this.nextInMs = 0
  }
}

/** The wait after the `attempt`-th failure in a row (from 1): firstMs doubled attempt - 1 times, at most maxMs. */
export function doublingDelay(attempt: number, firstMs: number, maxMs: number): number {
  // The exponent is bounded so that the power stays finite (and 0 × it a number).
  return Math.min(maxMs, firstMs * 2 ** Math.min(Math.max(0, attempt - 1), 1023))
}
