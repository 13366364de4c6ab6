// How much the spool asks the node at once. A fixed number of blocks per request is wrong on
// every chain but one: 100 empty blocks cost the node a millisecond, 100 blocks of 500
// transactions cost it half a minute. So each request is cut by the work it carries (its
// transactions, known beforehand from the cheap per-block counts), and the amount of work per
// request and the number of requests in flight are both steered by how fast the node answers:
// grow while answers come back well inside the target time, shrink to the measured rate when
// they come back late, halve on a timeout or an oversized answer (TCP's additive increase and
// multiplicative decrease, for the requests in flight).

/** What the operator's config bounds, and what the pacer aims at. */
export type PacerBounds = {
  /** The most blocks one request may carry (`spool.batchBlocks`). */
  maxBlocks: number
  /** The most requests in flight at once (`spool.concurrency`). */
  maxConcurrency: number
  /** The answer time aimed at: well inside the RPC timeout. */
  targetMs: number
  /** An answer larger than this (bytes) halves the work of the next requests. */
  maxBytes: number
}

/** The work a block asks of the node, in transaction-sized units: its transactions, and itself. */
export const blockWork = (transactions: number) => transactions + BLOCK_OVERHEAD

/** A block's own cost (header, trace and receipt calls) counted as this many transactions. */
const BLOCK_OVERHEAD = 4
/** The first request carries this much work: a few empty blocks, or one small busy block. */
const START_WORK = 64
/** An answer this many times the target means the node is overloaded, not busy. */
const OVERLOADED = 4
/** The least work a request is sized for; one block always goes, whatever it weighs. */
const MIN_WORK = 8

/** How the pacer stands, for the health objects. */
export type PacerState = { workPerRequest: number; concurrency: number; lastRequestMs: number | null; timeouts: number; oversized: number }

export class Pacer {
  /** Work units (blockWork) one request may carry. */
  private work = START_WORK
  /** Requests in flight, as a real number: it grows by 1/window per answer, so by one per round. */
  private window = 1
  private lastMs: number | null = null
  private timeouts = 0
  private oversized = 0

  constructor(private readonly bounds: PacerBounds) {}

  /** Requests that may be in flight at once. */
  get concurrency(): number {
    return Math.max(1, Math.min(this.bounds.maxConcurrency, Math.floor(this.window)))
  }

  /** How many of the blocks ahead (their work, in order) the next request takes: at least one. */
  take(works: readonly number[]): number {
    let total = 0
    let count = 0
    for (const work of works) {
      if (count >= this.bounds.maxBlocks || (count > 0 && total + work > this.work)) break
      total += work
      count++
    }
    return Math.max(1, Math.min(count, works.length))
  }

  /** A request of `work` units answered in `ms` with `bytes` bytes. */
  answered(work: number, ms: number, bytes: number): void {
    const { targetMs, maxBytes } = this.bounds
    this.lastMs = ms
    if (bytes > maxBytes) {
      this.oversized++
      this.work = Math.max(MIN_WORK, Math.floor(Math.min(this.work, work) / 2))
      return
    }
    if (ms > targetMs) {
      // Late: size the next requests by the rate this one measured. A node that is merely busy
      // answers smaller requests in time again; one that takes several times the target even so
      // is overloaded, and gets fewer requests at once.
      this.work = Math.max(MIN_WORK, Math.min(this.work, Math.floor((work * targetMs) / ms)))
      if (ms > OVERLOADED * targetMs) this.window = Math.max(1, this.window / 2)
      return
    }
    // Quick, and the request carried what it was allowed (a short one proves nothing): grow.
    if (ms < targetMs / 2 && work * 2 >= this.work) this.work = Math.min(this.maxWork(), this.work * 2)
    this.window = Math.min(this.bounds.maxConcurrency, this.window + 1 / this.window)
  }

  /** A request timed out: the node is overloaded; halve both. */
  timedOut(): void {
    this.timeouts++
    this.work = Math.max(MIN_WORK, Math.floor(this.work / 2))
    this.window = Math.max(1, this.window / 2)
  }

  state(): PacerState {
    return { workPerRequest: this.work, concurrency: this.concurrency, lastRequestMs: this.lastMs, timeouts: this.timeouts, oversized: this.oversized }
  }

  /** Enough work for maxBlocks busy blocks: beyond that, growing changes nothing. */
  private maxWork(): number {
    return this.bounds.maxBlocks * blockWork(10_000)
  }
}
