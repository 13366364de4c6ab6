import type { Database } from 'bun:sqlite'
import { subscribeNewHeads, type NewHeadsSubscription } from '../chain/newHeads.ts'
import type { Rpc } from '../chain/rpc.ts'
import { quantity } from '../eth/quantity.ts'
import { FatalError, firstLine, NodeTimeoutError, NodeUnreachableError } from '../errors.ts'
import { getMeta, setMeta } from './db.ts'
import { checkIdentity } from './identity.ts'
import { countTransactions, fetchBlockInParts, fetchBlocks, lackedMethods, type BlockBundle, type Capabilities } from './fetchBlocks.ts'
import type { Retrying, SpoolHealth } from './health.ts'
import type { SpoolMeter } from './meter.ts'
import { blockWork, Pacer } from './pacer.ts'
import { CatchUpMeter, describeCatchUp, type CatchUp } from './progress.ts'
import { LastingFailures, storageMessage, storageProblem, type StorageProblem } from './storage.ts'
import { getCursor, prepare, recordGap, rollbackTo, storedHash, writeBatch } from './store.ts'
import { gapHolding, historyGaps } from './read/blocks.ts'
import { spoolHead, streamPosition } from './read/cursors.ts'
import { boundStreamHistory, CAUGHT_UP_SLEEP_MS, MAX_LOGS_PER_PASS, rollbackStream, runPass, type StreamDefinition } from './streams.ts'

/** How the spool follows the node: what the worker is handed, and the follower works by. */
export type FollowerSettings = {
  /** The spool's file, for messages. */
  path: string
  chainId: number
  /** The first block the spool keeps. */
  startBlock: number
  /** The most blocks one request may carry; requests are cut by their transactions below that. */
  batchBlocks: number
  /** The most requests in flight at once; fewer while the node answers slowly. */
  concurrency: number
  /** How often to ask for the head when no new-heads notice came. */
  pollMs: number
  /** How far back a reorganisation may reach before the follower gives up. */
  maxReorgDepth: number
  /** At a block the node no longer has: wait there ('stop'), or record the hole and go on ('record'). */
  onHistoryGap: 'stop' | 'record'
  /**
   * A block the chain may be taken back to at any time, however deep (`stack dev`'s reset point,
   * right after deploy and seed): a rollback to it is followed whatever maxReorgDepth says, and the
   * streams keep the history of every block after it so that their rows can be rolled back too.
   */
  resetBlock?: number | null
  /** The time limit of one request to the node; 30 s unless a test says. */
  requestTimeoutMs?: number
  /** How often a lasting failure (a full disk, a stream pass that keeps failing) is logged again; 30 s by default. */
  failureRepeatMs?: number
}

export type FollowerOptions = FollowerSettings & {
  rpc: Rpc
  wsUrl: string | null
  streams: StreamDefinition[]
  /** Logs per stream pass: 5000 (docs/spool.md), tests use fewer. */
  maxLogsPerPass?: number
  log: (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => void
  onHealth: (health: SpoolHealth) => void
  /** Where fetches, written batches, rollbacks and the node's errors are counted, for the metrics. */
  meter?: SpoolMeter
}

/** One request of the catch-up, as it came back. */
type Fetched = { ok: true; bundles: Array<BlockBundle | null> } | { ok: false; error: unknown }

/** The time limit of one request to the node. */
export const REQUEST_TIMEOUT_MS = 30_000
/**
 * The answer time aimed at. Well inside the time limit, and short: a node serves several small
 * requests for less than one large one (on anvil, four 500-transaction blocks in one request cost
 * it about a tenth more CPU than the same blocks one at a time).
 */
const TARGET_MS = 1000
/** An answer larger than this asks for less work per request. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024
/** A retry that keeps failing is said after this many tries, then every failureRepeatMs. */
const SAY_AFTER_TRIES = 3
/** How often a catch-up says how it goes. */
const PROGRESS_EVERY_MS = 5000
/**
 * While the spool catches up, each stream takes one pass this often, and a short one: enough to
 * show it alive on a chain the spool never quite catches, little enough to leave the node's CPU
 * and the writer's thread to the copy.
 */
const STREAMS_WHILE_CATCHING_UP_MS = 15_000
const SHORT_PASS = { logs: 1000, txs: 2000, blocks: 1000 }

/** The meta key of the first block whose history the streams keep (historyKeptFrom). */
const HISTORY_FROM = 'history_from'
const historyFrom = (db: Database) => Number(getMeta(db, HISTORY_FROM) ?? Number.NEGATIVE_INFINITY)
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
/** A stream's history is bounded again once the deepest reorganisation followed has moved this share of spool.maxReorgDepth. */
const BOUND_EVERY_DEPTH = 1 / 4

/** The chain reorganised deeper than maxReorgDepth: the spool cannot find where it forked. */
export class DeepReorgError extends FatalError {
  override name = 'DeepReorgError'
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)

/**
 * Copies the node into the spool: catches up in requests sized to what the node answers in good
 * time, then follows the head; rolls back on reorganisations; keeps the derived streams running;
 * reports health after every change. Every path that tries again backs off, is counted, and is
 * said in the log and the health when it keeps failing: the follower never spins in silence.
 */
export class Follower {
  private readonly statements
  private readonly caps: Capabilities = { blockReceipts: null, traces: null }
  /** The methods the node lacks that the log has named. */
  private readonly saidLacking = new Set<string>()
  private readonly pacer: Pacer
  private readonly progress = new CatchUpMeter()
  private catchUpStatus: CatchUp | null = null
  /** Transactions per block ahead of the spool, from the node's counts: the work of each. */
  private readonly counts = new Map<number, number>()
  /** The request that last timed out: how much it carried and how long it was given. */
  private timedOutWork: { ms: number; blocks: number } | null = null
  /** The last rollback: to which block, and how many blocks it dropped. */
  private lastRollback: { to: number; dropped: number } | null = null
  private retry: (Retrying & { kind: string }) | null = null
  private nodeHead: number | null = null
  private reachable = false
  private lastError: string | null = null
  private historyGap: { from: number; to: number } | null = null
  private heads: NewHeadsSubscription | null = null
  private wake: (() => void) | null = null
  private identityChecked = false
  /** Where each stream's history was last bounded from (its first block kept whole). */
  private readonly boundFrom = new Map<string, number>()
  /** What keeps failing: the follower's own writes ('spool') and each stream ('stream:<name>'). */
  private readonly failures: LastingFailures

  constructor(
    private readonly db: Database,
    private readonly options: FollowerOptions,
  ) {
    this.statements = prepare(db)
    this.failures = new LastingFailures(options.failureRepeatMs ?? DEFAULT_REPEAT_MS)
    const timeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS
    this.pacer = new Pacer({ maxBlocks: options.batchBlocks, maxConcurrency: options.concurrency, targetMs: Math.min(TARGET_MS, timeout / 4), maxBytes: MAX_ANSWER_BYTES })
    const traces = getMeta(db, 'traces_available')
    // A node known to have no traces is not asked again; one that has them is asked which kind.
    if (traces === '0') this.caps.traces = false
  }

  /** Runs until the signal aborts. Throws only for what cannot be retried (another chain, a reorg too deep). */
  async run(signal: AbortSignal): Promise<void> {
    if (this.options.wsUrl) {
      this.heads = subscribeNewHeads(this.options.wsUrl, { onHead: () => this.wake?.() })
    }
    // The streams derive from what the spool holds, so they go on while the node is away.
    const stopStreams = new AbortController()
    const streams = this.runStreams(AbortSignal.any([signal, stopStreams.signal]))
    try {
      while (!signal.aborted) {
        try {
          if (!this.identityChecked) {
            await checkIdentity(this.db, this.options.rpc, this.options.chainId, this.options.path)
            this.identityChecked = true
          }
          const progressed = await this.step()
          this.markReachable()
          this.worksAgain()
          // The node answered and the spool wrote: whatever failed before works again (a run of
          // blocks that do not link is over only once one is written).
          this.settled('node', 'timeout', 'step', 'storage')
          if (this.retry) await sleep(this.retry.nextInMs, signal)
          else if (!progressed) await this.idle(signal)
        } catch (error) {
          if (error instanceof FatalError) throw error
          await sleep(this.failed(error), signal)
        }
      }
    } finally {
      stopStreams.abort()
      this.heads?.close()
      await streams
    }
  }

  health(): SpoolHealth {
    const head = spoolHead(this.db)
    const updated = getMeta(this.db, 'updated_at')
    const retry = this.retry
    return {
      chainId: this.options.chainId,
      genesisHash: getMeta(this.db, 'genesis_hash'),
      spoolHeadBlock: head,
      nodeHeadBlock: this.nodeHead,
      lagBlocks: this.nodeHead === null ? null : Math.max(0, this.nodeHead - (head ?? this.options.startBlock - 1)),
      updatedAt: updated === null ? null : new Date(Number(updated)).toISOString(),
      nodeReachable: this.reachable,
      nodeSocket: this.heads?.connected() ?? false,
      tracesAvailable: this.caps.traces === null ? null : this.caps.traces !== false,
      historyGap: this.historyGap,
      historyGaps: historyGaps(this.db),
      lastError: this.lastError,
      storageError: this.failures.storageError(),
      catchUp: this.catchUpStatus,
      fetch: this.pacer.state(),
      retrying: retry && { reason: retry.reason, attempts: retry.attempts, since: retry.since, nextInMs: retry.nextInMs },
      streams: Object.fromEntries(
        this.options.streams.map((stream) => [stream.name, { ...streamPosition(this.db, stream.name, head), error: this.failures.message(streamSource(stream)) }]),
      ),
    }
  }

  /**
   * A step failed: says so when due, and gives how long to wait before the next. A timeout is the
   * node overloaded, not gone: the pacer has halved what it asks, and the wait lets the node
   * finish what it was given, so that a range is never sent again while the node still works on it.
   */
  private failed(error: unknown): number {
    const storage = storageProblem(error, this.options.path)
    if (storage) {
      this.markStorageFailure(storage)
      return this.retrying('storage', this.lastError ?? firstLine(error))
    }
    if (error instanceof NodeTimeoutError) {
      this.options.meter?.rpcError('timeout')
      const late = this.timedOutWork
      const wait = this.retrying('timeout', `${firstLine(error)}${late ? ` (a request of ${late.blocks} blocks)` : ''}; asking for less at a time`)
      this.lastError = firstLine(error)
      this.timedOutWork = null
      // As long again as it was given: what the node was asked, it may still be working on.
      return Math.max(wait, late ? Math.min(late.ms, this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS) : 0)
    }
    if (error instanceof NodeUnreachableError) {
      this.options.meter?.rpcError('unreachable')
      this.markUnreachable(error)
      return this.retrying('node', firstLine(error), false)
    }
    this.options.meter?.rpcError('error')
    this.lastError = firstLine(error)
    return this.retrying('step', `spool step failed: ${firstLine(error)}`)
  }

  /**
   * Counts one more failed try of `kind` and gives how long to wait before the next (doubling from
   * 250 ms to 10 s). The log says it from the third try in a row, and again every failureRepeatMs
   * while it lasts; the health says it from the first.
   */
  private retrying(kind: string, reason: string, log = true): number {
    const now = Date.now()
    const retry = this.retry?.kind === kind ? this.retry : { kind, reason, attempts: 0, since: new Date(now).toISOString(), nextInMs: 0 }
    retry.reason = reason
    retry.attempts++
    retry.nextInMs = Math.min(10_000, 250 * 2 ** Math.min(retry.attempts - 1, 6))
    this.retry = retry
    if (log && retry.attempts >= SAY_AFTER_TRIES && this.failures.fail(`retry:${kind}`, reason, false, now)) {
      this.options.log('warn', { attempts: retry.attempts, since: retry.since, retryInMs: retry.nextInMs }, `${reason}; trying again${this.repeatNote()}`)
    }
    this.options.onHealth(this.health())
    return retry.nextInMs
  }

  /** A try of one of `kinds` succeeded: a retry of that kind is over. */
  private settled(...kinds: string[]): void {
    const retry = this.retry
    if (!retry || !kinds.includes(retry.kind)) return
    this.failures.clear(`retry:${retry.kind}`)
    if (retry.attempts >= SAY_AFTER_TRIES) this.options.log('info', { attempts: retry.attempts }, `works again after ${retry.attempts} tries: ${retry.reason}`)
    this.retry = null
    this.options.onHealth(this.health())
  }

  /** Brings the catch-up figures up to date; says them every few seconds, and when a catch-up ends. */
  private noteProgress(): void {
    if (this.nodeHead === null) return
    const head = getCursor(this.db)
    const { status, ended } = this.progress.update(head, this.nodeHead)
    this.catchUpStatus = status
    if (ended) {
      this.options.log('info', { blocks: ended.blocks, seconds: Math.round(ended.seconds * 10) / 10, head }, 'caught up with the node')
    } else if (status && this.progress.due(PROGRESS_EVERY_MS)) {
      this.options.log('info', { ...status, head, nodeHead: this.nodeHead, fetch: this.pacer.state() }, describeCatchUp(status, head, this.nodeHead))
    }
  }

  /** One unit of work; true when something was written (so there may be more to do at once). */
  private async step(): Promise<boolean> {
    const { rpc, startBlock } = this.options
    this.nodeHead = Number.parseInt(await rpc.call<string>('eth_blockNumber'), 16)
    const cursor = Math.max(getCursor(this.db), startBlock - 1)
    if (cursor >= this.nodeHead) {
      // Caught up: the stored tip must still be the node's, or the chain reorganised under it.
      if (cursor > this.nodeHead || !(await this.tipMatches(cursor))) {
        await this.reorganise(Math.min(cursor, this.nodeHead))
        return true
      }
      this.noteProgress()
      return false
    }
    return this.catchUp(cursor + 1, this.nodeHead)
  }

  /**
   * Copies blocks `from` to `head`: requests cut by the work they carry (the pacer), as many in
   * flight as the node answers in good time, written in order as they come, several answers in
   * one transaction with the cursor (see WRITE_TXS). Stops at anything that is not a plain run of
   * new blocks (a reorganisation, a gap, a failure) and leaves it to the next step; requests still
   * in flight then are waited for, not abandoned, since the node is working on them, and what was
   * answered before a failure is written first.
   */
  private async catchUp(from: number, head: number): Promise<boolean> {
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
      const outcome = this.store(unwritten.splice(0))
      unwrittenTxs = 0
      if (outcome === 'stored') {
        progressed = true
        return null
      }
      if (outcome === 'reorganised') {
        await this.reorganise(getCursor(this.db))
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
      this.rememberCapabilities()
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
  private store(bundles: Array<BlockBundle | null>): 'stored' | 'reorganised' | 'stopped' {
    let at = 0
    while (at < bundles.length) {
      const gap = bundles.indexOf(null, at)
      const present = (gap === -1 ? bundles.slice(at) : bundles.slice(at, gap)) as BlockBundle[]
      if (present.length > 0) {
        const follows = this.followsTip(present[0]!)
        if (follows === 'reorganised') return follows
        if (follows === 'unlinked') return 'stopped'
        // The blocks that link are written; where the node's own blocks stop linking, it is tried again.
        const broken = unlinkedAt(present)
        if (broken !== 0) this.write(broken === -1 ? present : present.slice(0, broken))
        if (broken !== -1) {
          const block = present[broken]!.block
          this.retrying('unlinked', doNotLink(quantity(block.number), block.parentHash, present[broken - 1]!.block.hash))
          return 'stopped'
        }
      }
      if (gap === -1) break
      // The missing blocks run to the next block the node has, or to the end of this run.
      let end = gap
      while (end + 1 < bundles.length && bundles[end + 1] === null) end++
      const missing = getCursor(this.db) + 1
      const through = missing + (end - gap)
      if (this.options.onHistoryGap !== 'record') {
        this.noteHistoryGap(missing)
        return 'stopped'
      }
      recordGap(this.db, missing, through)
      this.options.log(
        'error',
        { from: missing, to: through, nodeHead: this.nodeHead },
        'blocks the node no longer has were recorded as a history gap (spool.onHistoryGap = "record"): the spool goes on after them, and the explorer says they are missing',
      )
      this.options.onHealth(this.health())
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
  private followsTip(first: BlockBundle): 'follows' | 'reorganised' | 'unlinked' {
    const tip = getCursor(this.db)
    const stored = tip >= this.options.startBlock ? storedHash(this.db, tip) : null
    const parent = first.block.parentHash.toLowerCase()
    if (stored === null || parent === stored) return 'follows'
    if (this.lastRollback?.to !== tip || this.lastRollback.dropped !== 0) return 'reorganised'
    this.retrying('unlinked', doNotLink(tip + 1, parent, stored))
    return 'unlinked'
  }

  /** Writes a run of linked blocks with the cursor, and counts it. */
  private write(present: BlockBundle[]): void {
    writeBatch(this.db, this.statements, present)
    this.options.meter?.wrote(present.length, present.reduce((sum, bundle) => sum + bundle.block.transactions.length, 0))
    this.lastRollback = null
    this.settled('unlinked')
    if (this.historyGap) this.failures.clear('history-gap')
    this.historyGap = null
    this.progress.stored(present.length, present.reduce((sum, bundle) => sum + bundle.block.transactions.length, 0))
    this.noteProgress()
    this.options.onHealth(this.health())
  }

  private async tipMatches(cursor: number): Promise<boolean> {
    const stored = storedHash(this.db, cursor)
    if (stored === null) return true
    const block = await this.options.rpc.call<{ hash: string } | null>('eth_getBlockByNumber', [`0x${cursor.toString(16)}`, false])
    return block?.hash.toLowerCase() === stored
  }

  /**
   * Walks back from `from` to the newest block the node and the spool agree on, and drops the
   * rest. The walk stops at what it cannot check: a hole the spool recorded, or a block the node
   * no longer has; a fork below those is beyond what the spool can follow.
   */
  private async reorganise(from: number): Promise<void> {
    const { rpc, maxReorgDepth, startBlock } = this.options
    const deepest = this.deepestAncestor()
    // The ancestor is at least the first block the streams kept the history of: rolling back to it
    // restores every row changed after it.
    const floor = Math.max(startBlock - 1, deepest, historyFrom(this.db) - 1)
    // A block above the node's head is missing because the chain got shorter, not lost from history.
    const nodeHead = Number.parseInt(await rpc.call<string>('eth_blockNumber'), 16)
    for (let high = from; high > floor; high -= 32) {
      const numbers = range(Math.max(floor + 1, high - 31), high).reverse()
      const answers = await rpc.batch(numbers.map((number) => ({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] })))
      for (const [index, number] of numbers.entries()) {
        const answer = answers[index]!
        if (!answer.ok) throw answer.error
        const nodeHash = (answer.value as { hash: string } | null)?.hash.toLowerCase()
        const stored = storedHash(this.db, number)
        if (nodeHash !== undefined && nodeHash === stored) {
          this.rollback(number)
          return
        }
        const gap = stored === null ? gapHolding(this.db, number) : null
        if (gap) throw new DeepReorgError(`the chain reorganised below block ${gap.to + 1}, which follows a history gap the spool recorded (blocks ${gap.from} to ${gap.to}): the fork cannot be found`)
        if (nodeHash === undefined && stored !== null && number <= nodeHead) {
          throw new DeepReorgError(`the chain reorganised below block ${number + 1}, and the node no longer has block ${number}: the fork cannot be found`)
        }
      }
    }
    if (floor <= startBlock - 1) {
      this.rollback(startBlock - 1)
      return
    }
    const kept = historyFrom(this.db)
    if (floor === kept - 1 && floor > deepest) {
      throw new DeepReorgError(
        `the chain reorganised below block ${kept}, the oldest whose history the derived streams kept (the spool's head stood higher, or spool.maxReorgDepth was smaller, when they derived it): their rows cannot be rolled back below it`,
      )
    }
    throw new DeepReorgError(`the chain reorganised more than ${maxReorgDepth} blocks below block ${from}`)
  }

  private rollback(ancestor: number): void {
    const before = getCursor(this.db)
    const dropped = before - ancestor
    this.lastRollback = { to: ancestor, dropped }
    this.counts.clear()
    if (dropped === 0) return
    rollbackTo(this.db, ancestor, () => {
      for (const stream of this.options.streams) rollbackStream(this.db, stream, ancestor)
    })
    this.options.meter?.reorganised(dropped)
    this.options.log('warn', { from: before, to: ancestor, dropped }, 'chain reorganised: rolled back to the common ancestor')
    this.options.onHealth(this.health())
  }

  /**
   * The derived streams, each on a schedule of its own (docs/spool.md): a stream behind the spool runs
   * pass after pass (one short pass every 15 s while the spool itself catches up), one that has
   * caught up sleeps its own two seconds. Passes read only the
   * spool, never the node. One stream per pass, never two in one transaction, and the event loop
   * turns between passes so that the fetches in flight are written as they come.
   */
  private async runStreams(signal: AbortSignal): Promise<void> {
    const { streams, maxLogsPerPass } = this.options
    if (streams.length === 0) return
    const dueAt = new Map(streams.map((stream) => [stream.name, 0]))
    while (!signal.aborted) {
      for (const stream of streams) {
        if (signal.aborted || dueAt.get(stream.name)! > Date.now()) continue
        const caughtUp = this.streamPass(stream, maxLogsPerPass)
        // While the spool catches up, copying what the node may soon drop comes first: a stream
        // takes one short pass every 15 s, and runs flat out once the spool is at the head.
        dueAt.set(stream.name, caughtUp ? Date.now() + CAUGHT_UP_SLEEP_MS : this.catchUpStatus ? Date.now() + STREAMS_WHILE_CATCHING_UP_MS : 0)
        this.options.onHealth(this.health())
        await sleep(0, signal)
      }
      await sleep(Math.max(0, Math.min(...dueAt.values()) - Date.now()), signal)
    }
  }

  /**
   * One pass of one stream; true when it has caught up with the spool (or failed, and waits). A
   * failing pass is said when it starts failing and again every failureRepeatMs while it fails.
   */
  private streamPass(stream: StreamDefinition, maxLogs: number | undefined): boolean {
    const source = streamSource(stream)
    try {
      // While the spool catches up, a pass is short as well as rare: it holds up the writer (and
      // with it the requests to the node) for as long as it runs.
      const short = this.catchUpStatus !== null
      const logs = short ? Math.min(maxLogs ?? MAX_LOGS_PER_PASS, SHORT_PASS.logs) : maxLogs
      const { caughtUp } = runPass(this.db, stream, getCursor(this.db), {
        logs,
        blocks: short ? SHORT_PASS : undefined,
        historyFrom: this.historyKeptFrom(),
      })
      this.worksAgain(stream)
      this.pruneHistory(stream)
      return caughtUp
    } catch (error) {
      const storage = storageProblem(error, this.options.path)
      if (storage) {
        this.noteStorageFailure(source, storage, { stream: stream.name })
        return true
      }
      const message = firstLine(error)
      if (this.failures.fail(source, message, false)) {
        this.options.log('error', { stream: stream.name, error: message }, `a derived stream pass failed; it is tried again every two seconds${this.repeatNote()}`)
      }
      return true
    }
  }

  /**
   * Now and then, bounds a stream's versioned history (kit/bound.ts): whole only as deep as a
   * reorganisation the spool follows, and before that the reset point's state; it would otherwise
   * grow with the chain. A batch a pass, so a long history goes in short transactions.
   */
  private pruneHistory(stream: StreamDefinition): void {
    const { maxReorgDepth, resetBlock = null } = this.options
    const below = getCursor(this.db) - maxReorgDepth
    const last = this.boundFrom.get(stream.name)
    if (last !== undefined && below - last < Math.ceil(maxReorgDepth * BOUND_EVERY_DEPTH)) return
    if (!boundStreamHistory(this.db, stream, { below, resetBlock })) this.boundFrom.set(stream.name, below)
  }

  /**
   * The first block whose history the streams keep: none below the deepest reorganisation the
   * spool follows is ever rolled back to. Recorded (meta `history_from`, only ever raised) before
   * any pass or pruning may rely on it, so that a rollback never reaches below it, even after a
   * reorganisation has taken the cursor back.
   */
  private historyKeptFrom(): number {
    const from = this.deepestAncestor()
    if (from > historyFrom(this.db)) setMeta(this.db, HISTORY_FROM, String(from))
    return from
  }

  /**
   * The walk back looks for the common ancestor above this block: maxReorgDepth below the head,
   * or the reset point's parent when the chain may be taken back to it (its own hash must be
   * compared, so the walk goes one below it). The streams keep the history of every block above it.
   */
  private deepestAncestor(): number {
    const byDepth = getCursor(this.db) - this.options.maxReorgDepth
    const reset = this.options.resetBlock
    return reset === undefined || reset === null ? byDepth : Math.min(byDepth, reset - 1)
  }

  private async idle(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      this.wake = resolve
      sleep(Math.max(this.options.pollMs, 10), signal).then(resolve)
    })
    this.wake = null
  }

  /**
   * Keeps whether the node gives traces, and says which methods it lacks: in one line, when the
   * first answers show it (a method is refused for every block alike), not once per block.
   */
  private rememberCapabilities(): void {
    const lacking = lackedMethods(this.caps)
    if (lacking.methods.some((method) => !this.saidLacking.has(method))) {
      for (const method of lacking.methods) this.saidLacking.add(method)
      this.options.log('warn', { missing: lacking.methods }, `the node lacks ${lacking.methods.join(', ')}: ${lacking.meaning}`)
    }
    if (this.caps.traces === null) return
    const available = this.caps.traces === false ? '0' : '1'
    if (getMeta(this.db, 'traces_available') !== available) setMeta(this.db, 'traces_available', available)
  }

  /** The spool waits before a block the node no longer has: said now, and again every failureRepeatMs while it waits. */
  private noteHistoryGap(missing: number): void {
    const message = `the spool fell behind the node's history window: block ${missing} is gone from the node; the spool stops here rather than leave a hole (set spool.onHistoryGap = "record" to record the hole and go on)`
    if (this.failures.fail('history-gap', message, false)) {
      this.options.log('error', { missingBlock: missing, nodeHead: this.nodeHead }, `${message}${this.repeatNote()}`)
    }
    this.historyGap = { from: missing, to: this.nodeHead ?? missing }
    this.options.onHealth(this.health())
  }

  private markReachable(): void {
    if (!this.reachable) {
      this.failures.clear(UNREACHABLE_SOURCE)
      this.options.log('info', { rpc: this.options.rpc.url }, 'node reachable')
      this.reachable = true
      this.lastError = null
      this.options.onHealth(this.health())
    }
  }

  /**
   * The follower's write failed for a reason of the disk or the file, not of the node: the node
   * answered before it (every step and the identity check ask the node first), so it is reported
   * reachable, and the identity proven stays proven.
   */
  private markStorageFailure(storage: StorageProblem): void {
    this.markReachable()
    this.lastError = storageMessage(this.options.path, storage)
    this.noteStorageFailure(SPOOL_SOURCE, storage, {})
    this.options.onHealth(this.health())
  }

  /** Records a storage failure of `source` and says it when due (one line for every source). */
  private noteStorageFailure(source: string, storage: StorageProblem, fields: Record<string, unknown>): void {
    const message = storageMessage(this.options.path, storage)
    if (this.failures.fail(source, message, true)) {
      this.options.log('error', { ...fields, code: storage.code }, `${message}; retrying${this.repeatNote()}`)
    }
  }

  /** A step of the follower, or a pass of `stream`, succeeded: end its failure, if it had one. */
  private worksAgain(stream?: StreamDefinition): void {
    const failure = this.failures.clear(stream ? streamSource(stream) : SPOOL_SOURCE)
    if (!failure) return
    if (failure.storage && this.failures.storageError() === null) this.options.log('info', { path: this.options.path }, 'the spool can write again')
    if (!failure.storage && stream) this.options.log('info', { stream: stream.name }, 'the derived stream passes again')
    if (this.lastError === failure.message) this.lastError = null
    this.options.onHealth(this.health())
  }

  private repeatNote(): string {
    const every = this.options.failureRepeatMs ?? DEFAULT_REPEAT_MS
    return `; said again every ${every / 1000} s while it lasts`
  }

  /** The node cannot be reached: said when it goes, and again every failureRepeatMs while it stays away. */
  private markUnreachable(error: unknown): void {
    const message = firstLine(error)
    if (this.failures.fail(UNREACHABLE_SOURCE, 'node unreachable', false) || this.reachable) {
      this.options.log('warn', { error: message }, `node unreachable; retrying${this.reachable ? '' : this.repeatNote()}`)
    }
    this.reachable = false
    // Whatever answers when the node comes back must prove again that it is the same chain.
    this.identityChecked = false
    this.lastError = message
    this.options.onHealth(this.health())
  }
}

/** A lasting failure is logged again this often (30 s) while it lasts. */
const DEFAULT_REPEAT_MS = 30_000
/** The failures of the follower's own steps, beside those of each stream. */
const SPOOL_SOURCE = 'spool'
/** The node's absence, said when it starts and while it lasts. */
const UNREACHABLE_SOURCE = 'node'
const streamSource = (stream: StreamDefinition) => `stream:${stream.name}`

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
