// The derived streams' schedule: each stream on a clock of its own, reading only the spool, never
// the node, so they go on deriving what the spool holds while the node is away.
import { sleep } from '../../time/sleep.ts'
import type { SpoolWriter } from '../engine.ts'
import { getCursor } from '../store.ts'
import { boundStreamHistory, CAUGHT_UP_SLEEP_MS, MAX_LOGS_PER_PASS, runPass, type StreamDefinition } from '../streams.ts'
import type { FollowerFailures } from './failures.ts'
import { historyKeptFrom, type ReorgDepth } from './reorg.ts'

export type SchedulerOptions = ReorgDepth & {
  streams: StreamDefinition[]
  /** Logs per pass; 5000 unless a test says. */
  maxLogsPerPass?: number
  /** Whether the spool is catching up (more than a few blocks behind the node). */
  catchingUp: () => boolean
  /** Something the health shows changed. */
  changed: () => void
  /**
   * Runs `work` while no reorganisation runs (the follower's lock): a pass reads the spool's
   * cursor and the depth of history to keep, then writes, and a rollback in between would leave
   * it deriving blocks the spool no longer holds.
   */
  exclusive: <T>(work: () => Promise<T>) => Promise<T>
}

/**
 * While the spool catches up, each stream takes one pass this often, and a short one: enough to
 * show it alive on a chain the spool never quite catches, little enough to leave the node's CPU
 * and the writer's thread to the copy.
 */
const STREAMS_WHILE_CATCHING_UP_MS = 15_000
const SHORT_PASS = { logs: 1000, txs: 2000, blocks: 1000 }
/** A stream's history is bounded again once the deepest reorganisation followed has moved this share of spool.maxReorgDepth. */
const BOUND_EVERY_DEPTH = 1 / 4

export class StreamScheduler {
  /** Where each stream's history was last bounded from (its first block kept whole). */
  private readonly boundFrom = new Map<string, number>()

  constructor(
    private readonly writer: SpoolWriter,
    private readonly options: SchedulerOptions,
    private readonly failures: FollowerFailures,
  ) {}

  /**
   * Runs the streams until `signal` aborts, each on a schedule of its own (docs/spool.md): a
   * stream behind the spool runs pass after pass (one short pass every 15 s while the spool itself
   * catches up), one that has caught up sleeps its own two seconds. One stream per pass, never two
   * in one transaction, and the event loop turns between passes so that the fetches in flight are
   * written as they come.
   */
  async run(signal: AbortSignal): Promise<void> {
    const { streams, maxLogsPerPass } = this.options
    if (streams.length === 0) return
    const dueAt = new Map(streams.map((stream) => [stream.name, 0]))
    while (!signal.aborted) {
      for (const stream of streams) {
        if (signal.aborted || dueAt.get(stream.name)! > Date.now()) continue
        const caughtUp = await this.options.exclusive(() => this.pass(stream, maxLogsPerPass))
        // While the spool catches up, copying what the node may soon drop comes first: a stream
        // takes one short pass every 15 s, and runs flat out once the spool is at the head.
        dueAt.set(stream.name, caughtUp ? Date.now() + CAUGHT_UP_SLEEP_MS : this.options.catchingUp() ? Date.now() + STREAMS_WHILE_CATCHING_UP_MS : 0)
        this.options.changed()
        await sleep(0, signal)
      }
      await sleep(Math.max(0, Math.min(...dueAt.values()) - Date.now()), signal)
    }
  }

  /** One pass of one stream; true when it has caught up with the spool (or failed, and waits). */
  private async pass(stream: StreamDefinition, maxLogs: number | undefined): Promise<boolean> {
    try {
      // While the spool catches up, a pass is short as well as rare: it holds up the writer (and
      // with it the requests to the node) for as long as it runs.
      const short = this.options.catchingUp()
      const logs = short ? Math.min(maxLogs ?? MAX_LOGS_PER_PASS, SHORT_PASS.logs) : maxLogs
      const historyFrom = await historyKeptFrom(this.writer, this.options)
      const { caughtUp } = await runPass(this.writer, stream, await getCursor(this.writer), { logs, blocks: short ? SHORT_PASS : undefined, historyFrom })
      this.failures.worksAgain(stream.name)
      await this.pruneHistory(stream)
      return caughtUp
    } catch (error) {
      this.failures.streamFailed(stream.name, error)
      return true
    }
  }

  /**
   * Now and then, bounds a stream's versioned history (kit/bound.ts): whole only as deep as a
   * reorganisation the spool follows, and before that the reset point's state; it would otherwise
   * grow with the chain. A batch a pass, so a long history goes in short transactions.
   */
  private async pruneHistory(stream: StreamDefinition): Promise<void> {
    const { maxReorgDepth, resetBlock = null } = this.options
    const below = (await getCursor(this.writer)) - maxReorgDepth
    const last = this.boundFrom.get(stream.name)
    if (last !== undefined && below - last < Math.ceil(maxReorgDepth * BOUND_EVERY_DEPTH)) return
    if (!(await boundStreamHistory(this.writer, stream, { below, resetBlock }))) this.boundFrom.set(stream.name, below)
  }
}
