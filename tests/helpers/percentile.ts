// Percentiles, for the benches' tables and the tests that bound a latency or a lag: one rule,
// the nearest sample at or above the quantile's rank (no interpolation between samples).

/** The sample at quantile `q` (0 to 1) of `sorted` (ascending); NaN when there is none. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
}
