import { createCache, steadyClock, type Clock } from '../cache.ts'

/** The most keys kept: far more than one page's answers; past it the least recently used go. */
const MAX_KEYS = 10_000

/** The node's answers kept by key (an address, mostly), each read accepting an age of its own. */
export class RecentAnswers<T> {
  private readonly kept

  constructor(private readonly clock: Clock = steadyClock) {
    this.kept = createCache<string, { value: T; at: number }>({ max: MAX_KEYS, clock })
  }

  /** What `key` was answered at most `maxAgeMs` ago, as `{ value }`; undefined when nothing that recent is kept. */
  fresh(key: string, maxAgeMs: number): { value: T } | undefined {
    const hit = this.kept.get(key)
    return hit !== undefined && this.clock() - hit.at <= maxAgeMs ? hit : undefined
  }

  keep(key: string, value: T): void {
    this.kept.set(key, { value, at: this.clock() })
  }
}
