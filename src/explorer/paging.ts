import { queryInteger } from '../http/queryInteger.ts'

/**
 * Paging never fails. A limit that is not a number becomes the
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
  /** Search results: 8 (the search box's suggestions) unless asked, at most 50. */
  search: { fallback: 8, max: 50 },
} as const satisfies Record<string, PageRule>

export type Page = { limit: number; offset: number }

/** No list is that long; the bound keeps offset + limit an exact integer for SQLite. */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER - 1000

// What a number is (`queryInteger`) is the stack's one rule, shared with the exchange index, so
// `limit=1e2`, `0x10` or `3.5` is no number here either: the default.

export function clampLimit(raw: unknown, rule: PageRule): number {
  const value = queryInteger(raw)
  if (value === null) return rule.fallback
  return Math.min(rule.max, Math.max(1, value))
}

export function clampOffset(raw: unknown): number {
  const value = queryInteger(raw)
  return value === null ? 0 : Math.min(MAX_OFFSET, Math.max(0, value))
}

export function page(query: Record<string, unknown>, rule: PageRule = PAGE.list): Page {
  return { limit: clampLimit(query.limit, rule), offset: clampOffset(query.offset) }
}
