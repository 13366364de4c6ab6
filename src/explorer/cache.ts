/**
 * Answers kept for a few seconds (spec 03 "Limits": about 3 s on the address, token and NFT
 * routes, 15 s on a collection). Concurrent misses for one key share one computation, so a burst
 * of the same request costs one answer. Bounded: the oldest entries go first.
 */
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: T; expires: number }>()
  private readonly pending = new Map<string, Promise<T>>()

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  async get(key: string, compute: () => Promise<T> | T): Promise<T> {
    const hit = this.entries.get(key)
    if (hit && hit.expires > Date.now()) return hit.value
    const running = this.pending.get(key)
    if (running) return running
    const promise = (async () => {
      try {
        const value = await compute()
        this.put(key, value)
        return value
      } finally {
        this.pending.delete(key)
      }
    })()
    this.pending.set(key, promise)
    return promise
  }

  /** The cached value when fresh, without computing. */
  peek(key: string): T | undefined {
    const hit = this.entries.get(key)
    return hit && hit.expires > Date.now() ? hit.value : undefined
  }

  put(key: string, value: T): void {
    this.entries.delete(key)
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs })
  }
}
