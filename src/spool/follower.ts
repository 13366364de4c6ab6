import { subscribeNewHeads, type NewHeadsSubscription } from '../chain/newHeads.ts'
import type { Rpc } from '../chain/rpc.ts'
import { FatalError } from '../errors.ts'
import { quantity } from '../eth/quantity.ts'
import { sleep } from '../time/sleep.ts'
import { getMeta } from './meta.ts'
import { takingTurns, type SpoolWriter } from './engine.ts'
import { Copier } from './follow/copier.ts'
import { FollowerFailures, type FollowerLog } from './follow/failures.ts'
import { findAncestor, rollBack, tipMatches } from './follow/reorg.ts'
import { StreamScheduler } from './follow/streamScheduler.ts'
import type { SpoolHealth } from './health.ts'
import { checkIdentity } from './identity.ts'
import type { SpoolMeter } from './meter.ts'
import { positionOf } from './read/cursors.ts'
import { getCursor, storedGaps } from './store.ts'
import { readStreamCursor, type StreamDefinition } from './streams.ts'

export { DeepReorgError } from './follow/reorg.ts'

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
  log: FollowerLog
  onHealth: (health: SpoolHealth) => void
  /** Where fetches, written batches, rollbacks and the node's errors are counted, for the metrics. */
  meter?: SpoolMeter
}

/** The time limit of one request to the node. */
export const REQUEST_TIMEOUT_MS = 30_000
/** A lasting failure is logged again this often (30 s) while it lasts. */
const DEFAULT_REPEAT_MS = 30_000

/**
 * Copies the node into the spool: catches up in requests sized to what the node answers in good
 * time, then follows the head (follow/copier.ts); rolls back on reorganisations (follow/reorg.ts);
 * keeps the derived streams running (follow/streamScheduler.ts); reports health after every
 * change. Every path that tries again backs off, is counted, and is said in the log and the
 * health when it keeps failing (follow/failures.ts): the follower never spins in silence.
 */
export class Follower {
  private readonly failures: FollowerFailures
  private readonly copier: Copier
  private readonly streams: StreamScheduler
  /** Health reports in the order of the changes they follow (each is read from the spool). */
  private reported: Promise<void> = Promise.resolve()
  private readonly changed = () => {
    this.reported = this.reported.then(async () => this.options.onHealth(await this.health())).catch(() => {})
  }
  private nodeHead: number | null = null
  private heads: NewHeadsSubscription | null = null
  private wake: (() => void) | null = null
  private identityChecked = false
  /** Work that may not overlap another: a stream's pass, a reorganisation. */
  private readonly exclusive = takingTurns()

  constructor(
    private readonly writer: SpoolWriter,
    private readonly options: FollowerOptions,
  ) {
    const { rpc, log, meter } = options
    const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS
    const changed = this.changed
    this.failures = new FollowerFailures({
      path: options.path,
      rpcUrl: rpc.url,
      requestTimeoutMs,
      repeatMs: options.failureRepeatMs ?? DEFAULT_REPEAT_MS,
      log,
      meter,
      changed,
      nodeLost: () => (this.identityChecked = false),
    })
    this.copier = new Copier(writer, { ...options, requestTimeoutMs, changed, reorganise: (from) => this.reorganise(from) }, this.failures)
    this.streams = new StreamScheduler(writer, { ...options, catchingUp: () => this.copier.catchUpStatus !== null, changed, exclusive: this.exclusive }, this.failures)
  }

  /** Runs until the signal aborts. Throws only for what cannot be retried (another chain, a reorg too deep). */
  async run(signal: AbortSignal): Promise<void> {
    if (this.options.wsUrl) {
      this.heads = subscribeNewHeads(this.options.wsUrl, { onHead: () => this.wake?.() })
    }
    await this.copier.start()
    // The streams derive from what the spool holds, so they go on while the node is away.
    const stopStreams = new AbortController()
    const streams = this.streams.run(AbortSignal.any([signal, stopStreams.signal]))
    try {
      while (!signal.aborted) {
        try {
          if (!this.identityChecked) {
            await checkIdentity(this.writer, this.options.rpc, this.options.chainId, this.options.path)
            this.identityChecked = true
          }
          const progressed = await this.step()
          this.failures.reachable()
          this.failures.worksAgain()
          // The node answered and the spool wrote: whatever failed before works again (a run of
          // blocks that do not link is over only once one is written).
          this.failures.settled('node', 'timeout', 'step', 'storage')
          const retryWait = this.failures.retryWaitMs
          if (retryWait !== null) await sleep(retryWait, signal)
          else if (!progressed) await this.idle(signal)
        } catch (error) {
          if (error instanceof FatalError) throw error
          await sleep(this.failures.failed(error, this.copier), signal)
        }
      }
    } finally {
      stopStreams.abort()
      this.heads?.close()
      await streams
    }
  }

  async health(): Promise<SpoolHealth> {
    const { writer } = this
    const [cursor, updated, genesisHash, historyGaps, streamCursors] = await Promise.all([
      getCursor(writer),
      getMeta(writer, 'updated_at'),
      getMeta(writer, 'genesis_hash'),
      storedGaps(writer),
      Promise.all(this.options.streams.map((stream) => readStreamCursor(writer, stream.name))),
    ])
    const head = cursor >= 0 ? cursor : null
    const { failures, copier, nodeHead } = this
    return {
      chainId: this.options.chainId,
      genesisHash,
      spoolHeadBlock: head,
      nodeHeadBlock: nodeHead,
      lagBlocks: nodeHead === null ? null : Math.max(0, nodeHead - (head ?? this.options.startBlock - 1)),
      updatedAt: updated === null ? null : new Date(Number(updated)).toISOString(),
      nodeReachable: failures.nodeReachable,
      nodeSocket: this.heads?.connected() ?? false,
      tracesAvailable: copier.tracesAvailable(),
      historyGap: failures.historyGap,
      historyGaps,
      lastError: failures.lastError,
      storageError: failures.storageError(),
      catchUp: copier.catchUpStatus,
      fetch: copier.fetchState(),
      retrying: failures.retryHealth(),
      streams: Object.fromEntries(this.options.streams.map((stream, index) => [stream.name, { ...positionOf(streamCursors[index]!, head), error: failures.streamError(stream.name) }])),
    }
  }

  /** One unit of work; true when something was written (so there may be more to do at once). */
  private async step(): Promise<boolean> {
    const { rpc, startBlock } = this.options
    const nodeHead = quantity(await rpc.call<string>('eth_blockNumber'))
    this.nodeHead = nodeHead
    const cursor = Math.max(await getCursor(this.writer), startBlock - 1)
    if (cursor >= nodeHead) {
      // Caught up: the stored tip must still be the node's, or the chain reorganised under it.
      if (cursor > nodeHead || !(await tipMatches(this.writer, rpc, cursor))) {
        await this.reorganise(Math.min(cursor, nodeHead))
        return true
      }
      await this.copier.noteProgress(nodeHead)
      return false
    }
    return this.copier.catchUp(cursor + 1, nodeHead)
  }

  /** Walks back from `from` to the newest block the node and the spool agree on, and drops the rest. */
  private async reorganise(from: number): Promise<void> {
    // No stream's pass between reading where the spool stands and rolling it back.
    const rolled = await this.exclusive(async () => {
      const ancestor = await findAncestor(this.writer, this.options.rpc, from, this.options)
      this.copier.rolledBack(ancestor, (await getCursor(this.writer)) - ancestor)
      return rollBack(this.writer, ancestor, this.options)
    })
    if (rolled) this.changed()
  }

  private async idle(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      this.wake = resolve
      sleep(Math.max(this.options.pollMs, 10), signal).then(resolve)
    })
    this.wake = null
  }
}
