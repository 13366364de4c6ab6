const DAY_MS = 86_400_000

/** The UTC calendar day of a moment, "2026-01-31": the daily quotas reset when it changes. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

/** Whole seconds from a moment until the next 00:00 UTC, when the daily quotas reset. */
export function secondsUntilNextUtcDay(ms: number): number {
  return Math.ceil((DAY_MS - (ms % DAY_MS)) / 1000)
}
