// The copy of new blocks: catching up in requests sized to what the node answers in good time
// (the pacer), written in order, several answers a transaction; each run checked to follow the
// stored tip, and a block the node no longer has turned into a stop or a recorded hole.
import type { Rpc } from '../../chain/rpc.ts'
import { NodeTimeoutError } from '../../errors.ts'
import { quantity } from '../../eth/quantity.ts'
import { getMeta, setMeta } from '../meta.ts'
import type { SpoolWriter } from '../engine.ts'
import { countTransactions, fetchBlockInParts, fetchBlocks, lackedMethods, type BlockBundle, type Capabilities } from '../fetchBlocks.ts'
import type { SpoolMeter } from '../meter.ts'
import { blockWork, Pacer, type PacerState } from '../pacer.ts'
import { CatchUpMeter, describeCatchUp, type CatchUp } from '../progress.ts'
import { getCursor, recordGap, storedHash, writeBatch } from '../store.ts'
import type { FollowerFailures, FollowerLog, TimedOutWork } from './failures.ts'

export type CopierOptions = {
  rpc: Rpc
  /** The first block the spool keeps. */
  startBlock: number
  /** The most blocks one request may carry. */
  batchBlocks: number
  /** The most requests in flight at once. */
  concurrency: number
  /** The time limit of one request to the node. */
  requestTimeoutMs: number
  /** At a block the node no longer has: wait there ('stop'), or record the hole and go on ('record'). */
  onHistoryGap: 'stop' | 'record'
  log: FollowerLog
  meter?: SpoolMeter
  /** Something the health shows changed. */
  changed: () => void
  /** The first block of a run does not follow the stored tip: walk back from `from` and roll back. */
  reorganise: (from: number) => Promise<void>
}

/** One request of the catch-up, as it came back. */
type Fetched = { ok: true; bundles: Array<BlockBundle | null> } | { ok: false; error: unknown }

/**
 * The answer time aimed at. Well inside the time limit, and short: a node serves several small
 * requests for less than one large one (on anvil, four 500-transaction blocks in one request cost
 * it about a tenth more CPU than the same blocks one at a time).
 */
const TARGET_MS = 1000
/** An answer larger than this asks for less work per request. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024
/** How often a catch-up says how it goes. */
const PROGRESS_EVERY_MS = 5000
/** Blocks whose transactions are counted at once, ahead of the requests (a few bytes each). */
const COUNTS_AHEAD = 500
/**
 * While catching up, answers are written together, up to this many transactions, this many
 * blocks, or this long after the first of them came: one transaction of many blocks dirties each
 * page of the indexes keyed by random values (transaction hashes, fresh recipients) once for all
 * of them, where a transaction per answer dirtied them per answer (measured at 150,000
 * transfers: 48 µs a transaction written two blocks at a time, 19 µs twenty at a time). Empty
 * blocks gain little from it. A crash repeats at most that much: the cursor is written with the rows.
 */
const WRITE_TXS = 10_000
const WRITE_BLOCKS = 100
const WRITE_AFTER_MS = 2000

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)

export class Copier {
  /** A catch-up under way, as the health shows it; null at the head. */
  catchUpStatus: CatchUp | null = null
  private readonly caps: Capabilities = { blockReceipts: null, traces: null }
  /** The methods the node lacks that the log has named. */
  private readonly saidLacking = new Set<string>()
  private readonly pacer: Pacer
  private readonly progress = new CatchUpMeter()
  /** Transactions per block ahead of the spool, from the node's counts: the work of each. */
  private readonly counts = new Map<number, number>()
  /** The request that last timed out: how much it carried and how long it was given. */
  private timedOutWork: TimedOutWork | null = null
  /** The last rollback: to which block, and how many blocks it dropped. */
  private lastRollback: { to: number; dropped: number } | null = null
  /** The node's head the current copy runs to. */
  private nodeHead: number | null = null

  constructor(
    private readonly writer: SpoolWriter,
    private readonly options: CopierOptions,
    private readonly failures: FollowerFailures,
  ) {
    this.pacer = new Pacer({
      maxBlocks: options.batchBlocks,
      maxConcurrency: options.concurrency,
      targetMs: Math.min(TARGET_MS, options.requestTimeoutMs / 4),
      maxBytes: MAX_ANSWER_BYTES,
    })
  }

  /** What the spool knows of the node from before: one known to have no traces is not asked again; one that has them is asked which kind. */
  async start(): Promise<void> {
    if ((await getMeta(this.writer, 'traces_available')) === '0') this.caps.traces = false
  }

  /** Whether the node gives call traces; null until known. */
  tracesAvailable(): boolean | null {
    return this.caps.traces === null ? null : this.caps.traces !== false
  }

  /** How much the spool asks the node at once, as the pacer has it now. */
  fetchState(): PacerState {
    return this.pacer.state()
  }

  /** The request that last timed out, once: what the wait before the next step goes by. */
  takeTimedOut(): TimedOutWork | null {
    const late = this.timedOutWork
    this.timedOutWork = null
    return late
  }

  /** The spool was rolled back to `to`, dropping `dropped` blocks: what was counted ahead is stale. */
  rolledBack(to: number, dropped: number): void {
    this.lastRollback = { to, dropped }
    this.counts.clear()
  }

  /** Brings the catch-up figures up to date against the node's head; says them every few seconds, and when a catch-up ends. */
  async noteProgress(nodeHead: number): Promise<void> {
    this.nodeHead = nodeHead
    const head = await getCursor(this.writer)
    const { status, ended } = this.progress.update(head, nodeHead)
    this.catchUpStatus = status
    if (ended) {
      this.options.log('info', { blocks: ended.blocks, seconds: Math.round(ended.seconds * 10) / 10, head }, 'caught up with the node')
    } else if (status && this.progress.due(PROGRESS_EVERY_MS)) {
      this.options.log('info', { ...status, head, nodeHead, fetch: this.pacer.state() }, describeCatchUp(status, head, nodeHead))
    }
  }

  /**
   * Copies blocks `from` to `head`: requests cut by the work they carry (the pacer), as many in
   * flight as the node answers in good time, written in order as they come, several answers in
   * one transaction with the cursor (see WRITE_TXS). Stops at anything that is not a plain run of
   * new blocks (a reorganisation, a gap, a failure) and leaves it to the next step; requests still
   * in flight then are waited for, not abandoned, since the node is working on them, and what was
   * answered before a failure is written first. True when something was written (or rolled back).
   */
  async catchUp(from: number, head: number): Promise<boolean> {
    this.nodeHead = head
    // Requests in the order of their blocks; `answered` marks those the node has answered. The
    // node is kept at `concurrency` unanswered requests: one that comes back early frees its
    // place at once, though it is written only after the ones before it.
    const queue: Array<{ fetched: Promise<Fetched>; answered: boolean }> = []
    let freed: () => void = () => {}
    let next = from
    let progressed = false
    // Answered runs not yet written: consecutive blocks, written together.
    const unwritten: Array<BlockBundle | null> = []
    let unwrittenTxs = 0
    let unwrittenSince = 0
    /** Writes what was answered so far; gives what the next step should do, or null to go on. */
    const writeAnswered = async (): Promise<boolean | null> => {
      if (unwritten.length === 0) return null
      const outcome = await this.store(unwritten.splice(0))
      unwrittenTxs = 0
      if (outcome === 'stored') {
        progressed = true
        return null
      }
      if (outcome === 'reorganised') {
        await this.options.reorganise(await getCursor(this.writer))
        return true
      }
      return false
    }
    try {
      for (;;) {
        const waiting = () => queue.filter((request) => !request.answered).length
        while (waiting() < this.pacer.concurrency && queue.length < 2 * this.pacer.concurrency && next <= head) {
          const works = await this.worksAhead(next, head)
          const count = this.pacer.take(works)
          const request = { fetched: this.fetchRange(next, count, works.slice(0, count).reduce((sum, work) => sum + work, 0)), answered: false }
          void request.fetched.then(() => ((request.answered = true), freed()))
          queue.push(request)
          next += count
        }
        const oldest = queue[0]
        if (!oldest) return (await writeAnswered()) ?? progressed
        if (!oldest.answered) {
          // Until the oldest is answered, or another one is and makes room for one more request.
          await Promise.race([oldest.fetched, new Promise<void>((resolve) => (freed = resolve))])
          if (!oldest.answered) continue
        }
        queue.shift()
        const fetched = await oldest.fetched
        if (!fetched.ok) {
          const stop = await writeAnswered()
          if (stop !== null) return stop
          throw fetched.error
        }
        if (unwritten.length === 0) unwrittenSince = performance.now()
        unwritten.push(...fetched.bundles)
        unwrittenTxs += fetched.bundles.reduce((sum, bundle) => sum + (bundle?.block.transactions.length ?? 0), 0)
        const due = unwrittenTxs >= WRITE_TXS || unwritten.length >= WRITE_BLOCKS || performance.now() - unwrittenSince >= WRITE_AFTER_MS
        if (!due) continue
        const stop = await writeAnswered()
        if (stop !== null) return stop
      }
    } finally {
      await Promise.allSettled(queue.map((request) => request.fetched))
    }
  }

  /** The work of the blocks from `from` (at most as far as a full window of requests could take). */
  private async worksAhead(from: number, head: number): Promise<number[]> {
    const last = Math.min(head, from + COUNTS_AHEAD - 1)
    // One block left: there is nothing to cut, and the count would cost a round trip.
    if (last === from) return [blockWork(this.counts.get(from) ?? 0)]
    if (!this.counts.has(from) || !this.counts.has(last)) {
      for (const number of this.counts.keys()) if (number < from) this.counts.delete(number)
      const counts = await countTransactions(this.options.rpc, range(from, last))
      counts.forEach((count, index) => this.counts.set(from + index, count ?? 0))
    }
    return range(from, last).map((number) => blockWork(this.counts.get(number) ?? 0))
  }

  /** Fetches `count` blocks from `from` in one request (a block heavier than a request, in parts); never rejects. */
  private async fetchRange(from: number, count: number, work: number): Promise<Fetched> {
    const meter = { bytes: 0 }
    const started = performance.now()
    try {
      const heavy = count === 1 && work > 2 * this.pacer.state().workPerRequest
      const bundles = heavy
        ? [await fetchBlockInParts(this.options.rpc, from, this.caps, Math.max(1, this.pacer.state().workPerRequest), meter)]
        : await fetchBlocks(this.options.rpc, range(from, from + count - 1), this.caps, meter)
      const ms = performance.now() - started
      this.pacer.answered(work, ms, meter.bytes)
      this.options.meter?.fetched(ms, count)
      await this.rememberCapabilities()
      return { ok: true, bundles }
    } catch (error) {
      if (error instanceof NodeTimeoutError) {
        this.pacer.timedOut()
        this.timedOutWork = { ms: performance.now() - started, blocks: count }
      }
      return { ok: false, error }
    }
  }

  /**
   * Writes a fetched run: the blocks the node has, in one transaction with the cursor. A block
   * the node no longer has is a history gap: the spool stops before it, or records the hole and
   * goes on when the operator said so (spool.onHistoryGap). Says whether the run was stored in
   * full, or what stopped it: the first block does not follow the stored tip, or anything else.
   */
  private async store(bundles: Array<BlockBundle | null>): Promise<'stored' | 'reorganised' | 'stopped'> {
    let at = 0
    while (at < bundles.length) {
      const gap = bundles.indexOf(null, at)
      const present = (gap === -1 ? bundles.slice(at) : bundles.slice(at, gap)) as BlockBundle[]
      if (present.length > 0) {
        const follows = await this.followsTip(present[0]!)
        if (follows === 'reorganised') return follows
        if (follows === 'unlinked') return 'stopped'
        // The blocks that link are written; where the node's own blocks stop linking, it is tried again.
        const broken = unlinkedAt(present)
        if (broken !== 0) await this.write(broken === -1 ? present : present.slice(0, broken))
        if (broken !== -1) {
          const block = present[broken]!.block
          this.failures.retrying('unlinked', doNotLink(quantity(block.number), block.parentHash, present[broken - 1]!.block.hash))
          return 'stopped'
        }
      }
      if (gap === -1) break
      // The missing blocks run to the next block the node has, or to the end of this run.
      let end = gap
      while (end + 1 < bundles.length && bundles[end + 1] === null) end++
      const missing = (await getCursor(this.writer)) + 1
      const through = missing + (end - gap)
      if (this.options.onHistoryGap !== 'record') {
        this.failures.historyGapAt(missing, this.nodeHead)
        return 'stopped'
      }
      await recordGap(this.writer, missing, through)
      this.options.log(
        'error',
        { from: missing, to: through, nodeHead: this.nodeHead },
        'blocks the node no longer has were recorded as a history gap (spool.onHistoryGap = "record"): the spool goes on after them, and the explorer says they are missing',
      )
      this.options.changed()
      at = end + 1
    }
    return 'stored'
  }

  /**
   * Whether `first` follows the stored tip. When it does not, the chain reorganised, unless the
   * last walk back found the tip still on the node's chain: then the node's blocks themselves do
   * not link (a restored state, say), which fetching again at once would not mend; that is said,
   * counted and tried again after a pause like any other retry, and the block is not written.
   */
  private async followsTip(first: BlockBundle): Promise<'follows' | 'reorganised' | 'unlinked'> {
    const tip = await getCursor(this.writer)
    const stored = tip >= this.options.startBlock ? await storedHash(this.writer, tip) : null
    const parent = first.block.parentHash.toLowerCase()
    if (stored === null || parent === stored) return 'follows'
    if (this.lastRollback?.to !== tip || this.lastRollback.dropped !== 0) return 'reorganised'
    this.failures.retrying('unlinked', doNotLink(tip + 1, parent, stored))
    return 'unlinked'
  }

  /** Writes a run of linked blocks with the cursor, and counts it. */
  private async write(present: BlockBundle[]): Promise<void> {
    await writeBatch(this.writer, present)
    this.options.meter?.wrote(present.length, present.reduce((sum, bundle) => sum + bundle.block.transactions.length, 0))
    this.lastRollback = null
    this.failures.settled('unlinked')
    this.failures.historyGapPassed()
    this.progress.stored(present.length, present.reduce((sum, bundle) => sum + bundle.block.transactions.length, 0))
    if (this.nodeHead !== null) await this.noteProgress(this.nodeHead)
    this.options.changed()
  }

  /**
   * Keeps whether the node gives traces, and says which methods it lacks: in one line, when the
   * first answers show it (a method is refused for every block alike), not once per block.
   */
  private async rememberCapabilities(): Promise<void> {
    const lacking = lackedMethods(this.caps)
    if (lacking.methods.some((method) => !this.saidLacking.has(method))) {
      for (const method of lacking.methods) this.saidLacking.add(method)
      this.options.log('warn', { missing: lacking.methods }, `the node lacks ${lacking.methods.join(', ')}: ${lacking.meaning}`)
    }
    if (this.caps.traces === null) return
    const available = this.caps.traces === false ? '0' : '1'
    if ((await getMeta(this.writer, 'traces_available')) !== available) await this.writer.transaction((tx) => setMeta(tx, 'traces_available', available))
  }
}

/** What the follower says of block `number` whose parent is not the node's block before it. */
const doNotLink = (number: number, parentHash: string, previousHash: string) =>
  `block ${number} of the node names ${parentHash} as its parent, but the node's block ${number - 1} is ${previousHash}: the node's blocks do not link`

/** The index of the first block that does not name the one before it as its parent; -1 when all link. */
function unlinkedAt(bundles: BlockBundle[]): number {
  for (let index = 1; index < bundles.length; index++) {
    if (bundles[index]!.block.parentHash.toLowerCase() !== bundles[index - 1]!.block.hash.toLowerCase()) return index
  }
  return -1
}
