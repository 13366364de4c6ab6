/**
 * Spec 03 "Limits" and "Errors": paging never fails. A limit that is not a number becomes the
 * route's default, a negative (or zero) one becomes 1, one above the route's ceiling becomes the
 * ceiling; an offset below zero or not a number becomes 0. Every explorer route pages through
 * this one helper, so the rule cannot drift between routes.
 */
export type PageRule = { fallback: number; max: number }

export const PAGE = {
  /** Every list: limit at most 100, default 25. */
  list: { fallback: 25, max: 100 },
  /** The transactions of one block: default 50, same ceiling. */
  block: { fallback: 50, max: 100 },
  /** Chart points: default 48, clamped to 200. */
  chart: { fallback: 48, max: 200 },
  /** Items of an NFT collection: clamped to 48. */
  nftItems: { fallback: 48, max: 48 },
} as const satisfies Record<string, PageRule>

export type Page = { limit: number; offset: number }

/** No list is that long; the bound keeps offset + limit an exact integer for SQLite. */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER - 1000

/** A query value as a number, or NaN when it is absent, repeated or not a plain number. */
function numeric(raw: unknown): number {
  if (typeof raw !== 'string' || raw.trim() === '') return Number.NaN
  const value = Number(raw)
  return Number.isFinite(value) ? Math.trunc(value) : Number.NaN
}

export function clampLimit(raw: unknown, rule: PageRule): number {
  const value = numeric(raw)
  if (Number.isNaN(value)) return rule.fallback
  return Math.min(rule.max, Math.max(1, value))
}

export function clampOffset(raw: unknown): number {
  const value = numeric(raw)
  return Number.isNaN(value) ? 0 : Math.min(MAX_OFFSET, Math.max(0, value))
}

export function page(query: Record<string, unknown>, rule: PageRule = PAGE.list): Page {
  return { limit: clampLimit(query.limit, rule), offset: clampOffset(query.offset) }
}
