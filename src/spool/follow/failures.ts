// What goes wrong while the spool follows the node, said in the log and kept for the health: the
// node unreachable or too slow, a retry that keeps failing, a write the disk refuses, a stream
// pass that fails, a block the node no longer has. Every retry backs off and is counted, and a
// failure that lasts is said again every repeatMs: the follower never spins in silence.
import { NodeTimeoutError, NodeUnreachableError, firstLine } from '../../errors.ts'
import { Backoff } from '../../time/backoff.ts'
import type { Retrying } from '../health.ts'
import type { SpoolMeter } from '../meter.ts'
import { LastingFailures, storageMessage, storageProblem, type StorageProblem } from '../storage.ts'

export type FollowerLog = (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => void

/** A request the node did not answer in time: how much it carried and how long it was given. */
export type TimedOutWork = { ms: number; blocks: number }

export type FailureOptions = {
  /** The spool's file, for messages. */
  path: string
  /** The node's address, for the log. */
  rpcUrl: string
  /** The time limit of one request to the node. */
  requestTimeoutMs: number
  /** How often a lasting failure is said again. */
  repeatMs: number
  log: FollowerLog
  meter?: SpoolMeter
  /** Something the health shows changed. */
  changed: () => void
  /** The node went away: whatever answers when it comes back must prove again that it is the same chain. */
  nodeLost: () => void
}

/** A retry that keeps failing is said after this many tries, then every repeatMs. */
const SAY_AFTER_TRIES = 3
/** Retries wait from 250 ms, doubling, up to 10 s. */
const FIRST_WAIT_MS = 250
const MAX_WAIT_MS = 10_000
/** The failures of the follower's own steps, beside those of each stream. */
const SPOOL_SOURCE = 'spool'
/** The node's absence, said when it starts and while it lasts. */
const UNREACHABLE_SOURCE = 'node'
const HISTORY_GAP_SOURCE = 'history-gap'
const streamSource = (stream: string) => `stream:${stream}`

export class FollowerFailures {
  /** Whether the node answered last time it was asked. */
  nodeReachable = false
  /** The last error of the node or of the spool's writes, its first line. */
  lastError: string | null = null
  /** Blocks the node no longer has and the spool waits before. */
  historyGap: { from: number; to: number } | null = null
  private retry: { kind: string; reason: string; backoff: Backoff } | null = null
  /** What keeps failing: the follower's own writes ('spool') and each stream ('stream:<name>'). */
  private readonly failures: LastingFailures

  constructor(private readonly options: FailureOptions) {
    this.failures = new LastingFailures(options.repeatMs)
  }

  /**
   * A step failed: says so when due, and gives how long to wait before the next. A timeout is the
   * node overloaded, not gone: the pacer has halved what it asks, and the wait lets the node
   * finish what it was given, so that a range is never sent again while the node still works on it.
   */
  failed(error: unknown, requests: { takeTimedOut(): TimedOutWork | null }): number {
    const storage = storageProblem(error, this.options.path)
    if (storage) {
      this.storageFailed(storage)
      return this.retrying('storage', this.lastError ?? firstLine(error))
    }
    if (error instanceof NodeTimeoutError) {
      this.options.meter?.rpcError('timeout')
      const late = requests.takeTimedOut()
      const wait = this.retrying('timeout', `${firstLine(error)}${late ? ` (a request of ${late.blocks} blocks)` : ''}; asking for less at a time`)
      this.lastError = firstLine(error)
      // As long again as it was given: what the node was asked, it may still be working on.
      return Math.max(wait, late ? Math.min(late.ms, this.options.requestTimeoutMs) : 0)
    }
    if (error instanceof NodeUnreachableError) {
      this.options.meter?.rpcError('unreachable')
      this.unreachable(error)
      return this.retrying('node', firstLine(error), false)
    }
    this.options.meter?.rpcError('error')
    this.lastError = firstLine(error)
    return this.retrying('step', `spool step failed: ${firstLine(error)}`)
  }

  /**
   * Counts one more failed try of `kind` and gives how long to wait before the next (doubling from
   * 250 ms to 10 s). The log says it from the third try in a row, and again every repeatMs while
   * it lasts; the health says it from the first.
   */
  retrying(kind: string, reason: string, log = true): number {
    const now = Date.now()
    const retry = this.retry?.kind === kind ? this.retry : { kind, reason, backoff: new Backoff(FIRST_WAIT_MS, MAX_WAIT_MS) }
    retry.reason = reason
    const wait = retry.backoff.fail(now)
    this.retry = retry
    const { attempts } = retry.backoff
    if (log && attempts >= SAY_AFTER_TRIES && this.failures.fail(`retry:${kind}`, reason, false, now)) {
      this.options.log('warn', { attempts, since: iso(retry.backoff.since!), retryInMs: wait }, `${reason}; trying again${this.repeatNote()}`)
    }
    this.options.changed()
    return wait
  }

  /** What the follower keeps trying, for the health; null when nothing is. */
  retryHealth(): Retrying | null {
    const retry = this.retry
    return retry && { reason: retry.reason, attempts: retry.backoff.attempts, since: iso(retry.backoff.since!), nextInMs: retry.backoff.nextInMs }
  }

  /** Whether a retry is under way: the follower then waits this long before its next step. */
  get retryWaitMs(): number | null {
    return this.retry ? this.retry.backoff.nextInMs : null
  }

  /** A try of one of `kinds` succeeded: a retry of that kind is over. */
  settled(...kinds: string[]): void {
    const retry = this.retry
    if (!retry || !kinds.includes(retry.kind)) return
    const { attempts } = retry.backoff
    this.failures.clear(`retry:${retry.kind}`)
    if (attempts >= SAY_AFTER_TRIES) this.options.log('info', { attempts }, `works again after ${attempts} tries: ${retry.reason}`)
    this.retry = null
    this.options.changed()
  }

  /** The node answered. */
  reachable(): void {
    if (this.nodeReachable) return
    this.failures.clear(UNREACHABLE_SOURCE)
    this.options.log('info', { rpc: this.options.rpcUrl }, 'node reachable')
    this.nodeReachable = true
    this.lastError = null
    this.options.changed()
  }

  /** A step of the follower (no stream), or a pass of `stream`, succeeded: end its failure, if it had one. */
  worksAgain(stream?: string): void {
    const failure = this.failures.clear(stream === undefined ? SPOOL_SOURCE : streamSource(stream))
    if (!failure) return
    if (failure.storage && this.failures.storageError() === null) this.options.log('info', { path: this.options.path }, 'the spool can write again')
    if (!failure.storage && stream !== undefined) this.options.log('info', { stream }, 'the derived stream passes again')
    if (this.lastError === failure.message) this.lastError = null
    this.options.changed()
  }

  /** A pass of `stream` failed: said when it starts failing and again every repeatMs while it fails. */
  streamFailed(stream: string, error: unknown): void {
    const storage = storageProblem(error, this.options.path)
    if (storage) return this.noteStorageFailure(streamSource(stream), storage, { stream })
    const message = firstLine(error)
    if (this.failures.fail(streamSource(stream), message, false)) {
      this.options.log('error', { stream, error: message }, `a derived stream pass failed; it is tried again every two seconds${this.repeatNote()}`)
    }
  }

  /** Why the last pass of `stream` failed; null once one succeeds. */
  streamError(stream: string): string | null {
    return this.failures.message(streamSource(stream))
  }

  /** Why the spool cannot write its file right now; null while it can. */
  storageError(): string | null {
    return this.failures.storageError()
  }

  /** The spool waits before a block the node no longer has: said now, and again every repeatMs while it waits. */
  historyGapAt(missing: number, nodeHead: number | null): void {
    const message = `the spool fell behind the node's history window: block ${missing} is gone from the node; the spool stops here rather than leave a hole (set spool.onHistoryGap = "record" to record the hole and go on)`
    if (this.failures.fail(HISTORY_GAP_SOURCE, message, false)) {
      this.options.log('error', { missingBlock: missing, nodeHead }, `${message}${this.repeatNote()}`)
    }
    this.historyGap = { from: missing, to: nodeHead ?? missing }
    this.options.changed()
  }

  /** A block was written: the spool no longer waits before a gap. */
  historyGapPassed(): void {
    if (this.historyGap) this.failures.clear(HISTORY_GAP_SOURCE)
    this.historyGap = null
  }

  /**
   * The follower's write failed for a reason of the disk or the file, not of the node: the node
   * answered before it (every step and the identity check ask the node first), so it is reported
   * reachable, and the identity proven stays proven.
   */
  private storageFailed(storage: StorageProblem): void {
    this.reachable()
    this.lastError = storageMessage(this.options.path, storage)
    this.noteStorageFailure(SPOOL_SOURCE, storage, {})
    this.options.changed()
  }

  /** Records a storage failure of `source` and says it when due (one line for every source). */
  private noteStorageFailure(source: string, storage: StorageProblem, fields: Record<string, unknown>): void {
    const message = storageMessage(this.options.path, storage)
    if (this.failures.fail(source, message, true)) {
      this.options.log('error', { ...fields, code: storage.code }, `${message}; retrying${this.repeatNote()}`)
    }
  }

  /** The node cannot be reached: said when it goes, and again every repeatMs while it stays away. */
  private unreachable(error: unknown): void {
    const message = firstLine(error)
    if (this.failures.fail(UNREACHABLE_SOURCE, 'node unreachable', false) || this.nodeReachable) {
      this.options.log('warn', { error: message }, `node unreachable; retrying${this.nodeReachable ? '' : this.repeatNote()}`)
    }
    this.nodeReachable = false
    this.options.nodeLost()
    this.lastError = message
    this.options.changed()
  }

  private repeatNote(): string {
    return `; said again every ${this.options.repeatMs / 1000} s while it lasts`
  }
}

const iso = (ms: number) => new Date(ms).toISOString()
