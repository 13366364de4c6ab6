import type { Database } from 'bun:sqlite'
import { subscribeNewHeads, type NewHeadsSubscription } from '../chain/newHeads.ts'
import type { Rpc } from '../chain/rpc.ts'
import { FatalError, firstLine, NodeUnreachableError } from '../errors.ts'
import { getMeta, setMeta } from './db.ts'
import { checkIdentity } from './identity.ts'
import { fetchBlocks, type BlockBundle, type Capabilities } from './fetchBlocks.ts'
import type { SpoolHealth } from './health.ts'
import { LastingFailures, storageMessage, storageProblem, type StorageProblem } from './storage.ts'
import { getCursor, prepare, rollbackTo, storedHash, writeBatch } from './store.ts'
import { spoolHead, streamPosition } from './read/cursors.ts'
import { CAUGHT_UP_SLEEP_MS, rollbackStream, runPass, type StreamDefinition } from './streams.ts'

/** How the spool follows the node: what the worker is handed, and the follower works by. */
export type FollowerSettings = {
  /** The spool's file, for messages. */
  path: string
  chainId: number
  /** The first block the spool keeps. */
  startBlock: number
  /** Blocks per fetch and per write transaction. */
  batchBlocks: number
  /** Fetches in flight at once during backfill. */
  concurrency: number
  /** How often to ask for the head when no new-heads notice came. */
  pollMs: number
  /** How far back a reorganisation may reach before the follower gives up. */
  maxReorgDepth: number
  /** How often a lasting failure (a full disk, a stream pass that keeps failing) is logged again; 30 s by default. */
  failureRepeatMs?: number
}

export type FollowerOptions = FollowerSettings & {
  rpc: Rpc
  wsUrl: string | null
  streams: StreamDefinition[]
  /** Logs per stream pass; spec 02 fixes 5000, tests use fewer. */
  maxLogsPerPass?: number
  log: (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => void
  onHealth: (health: SpoolHealth) => void
}

/** The chain reorganised deeper than maxReorgDepth: the spool cannot find where it forked. */
export class DeepReorgError extends FatalError {
  override name = 'DeepReorgError'
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
  })

/**
 * Copies the node into the spool: backfills from the start block in batches fetched with
 * bounded concurrency and written one transaction each, then follows the head; rolls back on
 * reorganisations; keeps the derived streams running; reports health after every change.
 */
export class Follower {
  private readonly statements
  private readonly caps: Capabilities = { blockReceipts: null, traces: null }
  private nodeHead: number | null = null
  private reachable = false
  private lastError: string | null = null
  private historyGap: { from: number; to: number } | null = null
  private heads: NewHeadsSubscription | null = null
  private wake: (() => void) | null = null
  private identityChecked = false
  /** What keeps failing: the follower's own writes ('spool') and each stream ('stream:<name>'). */
  private readonly failures: LastingFailures

  constructor(
    private readonly db: Database,
    private readonly options: FollowerOptions,
  ) {
    this.statements = prepare(db)
    this.failures = new LastingFailures(options.failureRepeatMs ?? DEFAULT_REPEAT_MS)
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
    let backoff = 500
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
          backoff = 500
          if (!progressed) await this.idle(signal)
        } catch (error) {
          if (error instanceof FatalError) throw error
          const storage = storageProblem(error, this.options.path)
          if (storage) this.markStorageFailure(storage)
          else this.markUnreachable(error)
          await sleep(backoff, signal)
          backoff = Math.min(backoff * 2, 10_000)
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
      lastError: this.lastError,
      storageError: this.failures.storageError(),
      streams: Object.fromEntries(
        this.options.streams.map((stream) => [stream.name, { ...streamPosition(this.db, stream.name, head), error: this.failures.message(streamSource(stream)) }]),
      ),
    }
  }

  /** One unit of work; true when something was written (so there may be more to do at once). */
  private async step(): Promise<boolean> {
    const { rpc, batchBlocks, concurrency, startBlock } = this.options
    this.nodeHead = Number.parseInt(await rpc.call<string>('eth_blockNumber'), 16)
    let cursor = getCursor(this.db)
    if (cursor < startBlock - 1) {
      cursor = startBlock - 1
    }
    if (cursor >= this.nodeHead) {
      // Caught up: the stored tip must still be the node's, or the chain reorganised under it.
      if (cursor > this.nodeHead || !(await this.tipMatches(cursor))) {
        await this.reorganise(Math.min(cursor, this.nodeHead))
        return true
      }
      return false
    }

    const last = Math.min(this.nodeHead, cursor + batchBlocks * concurrency)
    const ranges: number[][] = []
    for (let from = cursor + 1; from <= last; from += batchBlocks) {
      ranges.push(Array.from({ length: Math.min(batchBlocks, last - from + 1) }, (_, index) => from + index))
    }
    const fetched = await Promise.all(ranges.map((numbers) => fetchBlocks(rpc, numbers, this.caps)))
    this.rememberCapabilities()

    for (const bundles of fetched) {
      // A block at or below the head that the node no longer has fell out of its history
      // window: store what comes before it, then stop there rather than leave a hole.
      const gap = bundles.indexOf(null)
      const present = (gap === -1 ? bundles : bundles.slice(0, gap)) as BlockBundle[]
      if (present.length > 0) {
        const tip = getCursor(this.db)
        const stored = tip >= startBlock ? storedHash(this.db, tip) : null
        if (stored !== null && present[0]!.block.parentHash.toLowerCase() !== stored) {
          await this.reorganise(tip)
          return true
        }
        if (!linked(present)) return true // the node reorganised while we fetched: fetch again
        writeBatch(this.db, this.statements, present)
        this.historyGap = null
        this.options.onHealth(this.health())
      }
      if (gap !== -1) {
        this.noteHistoryGap(getCursor(this.db) + 1)
        return false
      }
    }
    return true
  }

  private async tipMatches(cursor: number): Promise<boolean> {
    const stored = storedHash(this.db, cursor)
    if (stored === null) return true
    const block = await this.options.rpc.call<{ hash: string } | null>('eth_getBlockByNumber', [`0x${cursor.toString(16)}`, false])
    return block?.hash.toLowerCase() === stored
  }

  /** Walks back from `from` to the newest block the node and the spool agree on, and drops the rest. */
  private async reorganise(from: number): Promise<void> {
    const { rpc, maxReorgDepth, startBlock } = this.options
    const floor = Math.max(startBlock - 1, getCursor(this.db) - maxReorgDepth)
    for (let high = from; high > floor; high -= 32) {
      const numbers = Array.from({ length: Math.min(32, high - floor) }, (_, index) => high - index)
      const answers = await rpc.batch(numbers.map((number) => ({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] })))
      for (const [index, number] of numbers.entries()) {
        const answer = answers[index]!
        if (!answer.ok) throw answer.error
        const nodeHash = (answer.value as { hash: string } | null)?.hash.toLowerCase()
        if (nodeHash !== undefined && nodeHash === storedHash(this.db, number)) {
          this.rollback(number)
          return
        }
      }
    }
    if (floor <= startBlock - 1) {
      this.rollback(startBlock - 1)
      return
    }
    throw new DeepReorgError(`the chain reorganised more than ${maxReorgDepth} blocks below block ${from}`)
  }

  private rollback(ancestor: number): void {
    const before = getCursor(this.db)
    rollbackTo(this.db, ancestor, () => {
      for (const stream of this.options.streams) rollbackStream(this.db, stream, ancestor)
    })
    this.options.log('warn', { from: before, to: ancestor, dropped: before - ancestor }, 'chain reorganised: rolled back to the common ancestor')
    this.options.onHealth(this.health())
  }

  /**
   * The derived streams, each on a schedule of its own (spec 02): a stream behind the spool runs
   * pass after pass, one that has caught up sleeps its own two seconds. Passes read only the
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
        dueAt.set(stream.name, this.streamPass(stream, maxLogsPerPass) ? Date.now() + CAUGHT_UP_SLEEP_MS : 0)
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
      const { caughtUp } = runPass(this.db, stream, getCursor(this.db), maxLogs)
      this.worksAgain(stream)
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

  private async idle(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      this.wake = resolve
      sleep(Math.max(this.options.pollMs, 10), signal).then(resolve)
    })
    this.wake = null
  }

  private rememberCapabilities(): void {
    if (this.caps.traces === null) return
    const available = this.caps.traces === false ? '0' : '1'
    if (getMeta(this.db, 'traces_available') !== available) {
      setMeta(this.db, 'traces_available', available)
      if (available === '0') this.options.log('warn', {}, 'the node gives no call traces (neither trace_block nor the call tracer): transactions are stored without them')
    }
  }

  private noteHistoryGap(missing: number): void {
    if (this.historyGap?.from !== missing) {
      this.options.log(
        'error',
        { missingBlock: missing, nodeHead: this.nodeHead },
        'the spool fell behind the node history window: a block below the head is gone from the node; the spool stops here rather than leave a hole',
      )
    }
    this.historyGap = { from: missing, to: this.nodeHead ?? missing }
    this.options.onHealth(this.health())
  }

  private markReachable(): void {
    if (!this.reachable) {
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

  private markUnreachable(error: unknown): void {
    const message = firstLine(error)
    if (this.reachable || this.lastError === null) {
      this.options.log('warn', { error: message }, error instanceof NodeUnreachableError ? 'node unreachable; retrying' : 'spool step failed; retrying')
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
const streamSource = (stream: StreamDefinition) => `stream:${stream.name}`

/** Each block's parent is the block before it. */
function linked(bundles: BlockBundle[]): boolean {
  for (let index = 1; index < bundles.length; index++) {
    if (bundles[index]!.block.parentHash.toLowerCase() !== bundles[index - 1]!.block.hash.toLowerCase()) return false
  }
  return true
}
