import { createCache, steadyClock, type Clock } from '../cache.ts'
import { JSON_TYPE } from './errors.ts'

/** What an answer was made from: it is kept while this stays the same (the spool's version, say). */
export type Version = () => number

type Kept = { version: number; bytes: Uint8Array }
type Compute = () => unknown

const encoder = new TextEncoder()

/**
 * The JSON answers of routes that read what `version` stands for (the spool and its derived
 * streams), kept as the bytes that go out until that version changes or `maxAgeMs` has passed
 * since the computation began (the age bounds whatever else an answer holds: a label of the
 * registry, a reading of the node). Under load a route then costs a copy of its bytes until the
 * chain moves, and a new block is in the next answer. Concurrent misses for one key share one
 * computation; a failed computation is not kept. Bounded by the bytes kept: the least recently
 * used go first, so keys a client makes up (every limit and offset) cannot grow it.
 */
export class AnswerCache {
  private readonly kept

  constructor(
    private readonly version: Version,
    maxAgeMs = 1000,
    maxBytes = 32 * 1024 * 1024,
    private readonly clock: Clock = steadyClock,
  ) {
    this.kept = createCache<string, Kept, Compute>({
      clock,
      ttl: Math.max(maxAgeMs, 1),
      maxSize: maxBytes,
      // An answer with no age to keep (maxAgeMs 0) counts as too large: its waiters have it, the cache does not.
      sizeCalculation: ({ bytes }) => (maxAgeMs > 0 ? Math.max(bytes.byteLength, 1) : maxBytes + 1),
      fetchMethod: async (_key, _stale, { context: compute, options }) => {
        const version = this.version()
        const began = this.clock()
        // Computed on the next turn: pending before it runs, and not left pending by a throw at once.
        const value = await Promise.resolve().then(compute)
        // Its age counts from the start, so what the computation read is never older than
        // maxAgeMs; one that took longer is stale at once (a ttl of 0 would mean no age at all).
        options.ttl = Math.max(maxAgeMs - (this.clock() - began), Number.MIN_VALUE)
        return { version, bytes: encoder.encode(JSON.stringify(value)) }
      },
    })
  }

  /** The answer of `key`: kept bytes while they are current, else what `compute` gives, as JSON. */
  answer(key: string, compute: Compute): Response | Promise<Response> {
    const version = this.version()
    const hit = this.kept.get(key)
    if (hit && hit.version === version) return respond(hit)
    return this.kept.fetch(key, { context: compute, forceRefresh: hit !== undefined }).then((kept) => respond(kept!))
  }
}

const respond = ({ bytes }: Kept) => new Response(bytes, { headers: { 'content-type': JSON_TYPE } })
