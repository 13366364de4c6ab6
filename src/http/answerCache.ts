import { JSON_TYPE } from './errors.ts'

/** What an answer was made from: it is kept while this stays the same (the spool's version, say). */
export type Version = () => number

type Kept = { version: number; madeAt: number; bytes: Uint8Array }

const encoder = new TextEncoder()

/**
 * The JSON answers of routes that read what `version` stands for (the spool and its derived
 * streams), kept as the bytes that go out until that version changes or `maxAgeMs` has passed
 * (the age bounds whatever else an answer holds: a label of the registry, a reading of the
 * node). Under load a route then costs a copy of its bytes until the chain moves, and a new
 * block is in the next answer. Concurrent misses for one key share one computation; a failed
 * computation is not kept. Bounded by the bytes kept: the oldest go first, so keys a client
 * makes up (every limit and offset) cannot grow it.
 */
export class AnswerCache {
  private readonly kept = new Map<string, Kept>()
  private readonly pending = new Map<string, Promise<Kept>>()
  private bytes = 0

  constructor(
    private readonly version: Version,
    private readonly maxAgeMs = 1000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  /** The answer of `key`: kept bytes while they are current, else what `compute` gives, as JSON. */
  answer(key: string, compute: () => unknown): Response | Promise<Response> {
    const version = this.version()
    const now = performance.now()
    const hit = this.kept.get(key)
    if (hit && hit.version === version && now - hit.madeAt < this.maxAgeMs) return respond(hit)
    let running = this.pending.get(key)
    if (!running) {
      // Computed on the next turn: pending before it runs, and not left pending by a throw at once.
      running = Promise.resolve()
        .then(compute)
        .then((value) => {
          const kept = { version, madeAt: now, bytes: encoder.encode(JSON.stringify(value)) }
          this.keep(key, kept)
          return kept
        })
        .finally(() => this.pending.delete(key))
      this.pending.set(key, running)
    }
    return running.then(respond)
  }

  private keep(key: string, kept: Kept): void {
    const old = this.kept.get(key)
    if (old) {
      this.bytes -= old.bytes.byteLength
      this.kept.delete(key)
    }
    if (kept.bytes.byteLength > this.maxBytes) return
    this.kept.set(key, kept)
    this.bytes += kept.bytes.byteLength
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.maxBytes) break
      this.kept.delete(oldest)
      this.bytes -= entry.bytes.byteLength
    }
  }
}

const respond = ({ bytes }: Kept) => new Response(bytes, { headers: { 'content-type': JSON_TYPE } })
