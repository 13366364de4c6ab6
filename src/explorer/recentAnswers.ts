/** The most keys kept: far more than one page's answers; past it the oldest are not worth sorting out. */
const MAX_KEYS = 10_000

/**
 * The node's answers kept by key (an address, mostly), each read accepting an age of its own.
 * Past MAX_KEYS keys everything is dropped and asked again when next needed.
 */
export class RecentAnswers<T> {
  private readonly kept = new Map<string, { value: T; at: number }>()

  /** What `key` was answered at most `maxAgeMs` ago, as `{ value }`; undefined when nothing that recent is kept. */
  fresh(key: string, maxAgeMs: number): { value: T } | undefined {
    const hit = this.kept.get(key)
    return hit !== undefined && Date.now() - hit.at <= maxAgeMs ? hit : undefined
  }

  keep(key: string, value: T): void {
    if (this.kept.size >= MAX_KEYS) this.kept.clear()
    this.kept.set(key, { value, at: Date.now() })
  }
}
