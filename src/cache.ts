import { LRUCache } from 'lru-cache'

/**
 * Milliseconds from an arbitrary origin, steady (performance.now): the time every cache reads,
 * so a test moves it instead of sleeping. It must not read 0 when an entry is kept (lru-cache
 * takes a start of 0 for "no start", and such an entry never ages): test clocks start above it.
 */
export type Clock = () => number

export const steadyClock: Clock = () => performance.now()

export type CacheOptions<K extends {}, V extends {}, C> = LRUCache.Options<K, V, C> & { clock?: Clock }

/**
 * The stack's one server-side cache: lru-cache (a bound in entries or bytes, the least recently
 * used going first; ages; `fetch` for one computation shared by concurrent misses), with the
 * house's clock, and ages read exactly (no rounding to lru-cache's default millisecond, whose
 * timer a hot route would set again and again).
 */
export function createCache<K extends {}, V extends {}, C = unknown>({ clock = steadyClock, ...options }: CacheOptions<K, V, C>): LRUCache<K, V, C> {
  return new LRUCache<K, V, C>({ ttlResolution: 0, ...options, perf: { now: clock } })
}
