// How a long catch-up is going: blocks done and left, the rate over the last seconds, and when it
// should end. The follower feeds it every write; the log says it every few seconds, the health
// objects carry it, and a terminal shows it as a line of its own.
import { roughDuration } from '../format/duration.ts'

/** A catch-up in progress, as the health objects show it; null when the spool is at the head. */
export type CatchUp = {
  /** Blocks stored since this catch-up began. */
  blocksDone: number
  /** Blocks between the spool's head and the node's. */
  blocksLeft: number
  blocksPerSecond: number
  txsPerSecond: number
  /** Seconds until the spool reaches the node's head at the current rate; null before a rate is known. */
  etaSeconds: number | null
  /** When this catch-up began (ISO 8601). */
  since: string
}

/** Behind by more than this many blocks, the spool is catching up; within `DONE_LAG`, it has. */
const START_LAG = 10
const DONE_LAG = 2
/** The rates are taken over the writes of the last ten seconds. */
const WINDOW_MS = 10_000

type Sample = { at: number; blocks: number; txs: number }

export class CatchUpMeter {
  private started: { at: number; done: number } | null = null
  private done = 0
  private samples: Sample[] = []
  private loggedAt = 0

  constructor(private readonly now: () => number = Date.now) {}

  /** Blocks and transactions just stored. */
  stored(blocks: number, txs: number): void {
    const at = this.now()
    this.done += blocks
    this.samples.push({ at, blocks, txs })
    while (this.samples.length > 1 && this.samples[0]!.at < at - WINDOW_MS) this.samples.shift()
  }

  /**
   * Where the catch-up stands given the spool's and the node's heads; starts and ends one as the
   * lag crosses its marks. `ended` is true once, when one ends.
   */
  update(spoolHead: number, nodeHead: number): { status: CatchUp | null; ended: { seconds: number; blocks: number } | null } {
    const left = Math.max(0, nodeHead - spoolHead)
    if (this.started === null) {
      if (left <= START_LAG) return { status: null, ended: null }
      this.started = { at: this.now(), done: this.done }
      this.loggedAt = this.now()
    } else if (left <= DONE_LAG) {
      const ended = { seconds: (this.now() - this.started.at) / 1000, blocks: this.done - this.started.done }
      this.started = null
      return { status: null, ended }
    }
    const { blocksPerSecond, txsPerSecond } = this.rates()
    return {
      status: {
        blocksDone: this.done - this.started.done,
        blocksLeft: left,
        blocksPerSecond: round(blocksPerSecond),
        txsPerSecond: round(txsPerSecond),
        etaSeconds: blocksPerSecond > 0 ? Math.ceil(left / blocksPerSecond) : null,
        since: new Date(this.started.at).toISOString(),
      },
      ended: null,
    }
  }

  /** True every `everyMs` while a catch-up goes on: time to say how it goes. */
  due(everyMs: number): boolean {
    if (this.started === null || this.now() - this.loggedAt < everyMs) return false
    this.loggedAt = this.now()
    return true
  }

  private rates(): { blocksPerSecond: number; txsPerSecond: number } {
    const first = this.samples[0]
    if (!first || this.samples.length < 2) return { blocksPerSecond: 0, txsPerSecond: 0 }
    // The first sample marks the window's start: what it stored came before it.
    const seconds = (this.samples.at(-1)!.at - first.at) / 1000
    if (seconds <= 0) return { blocksPerSecond: 0, txsPerSecond: 0 }
    let blocks = 0
    let txs = 0
    for (const sample of this.samples.slice(1)) {
      blocks += sample.blocks
      txs += sample.txs
    }
    return { blocksPerSecond: blocks / seconds, txsPerSecond: txs / seconds }
  }
}

const round = (value: number) => Math.round(value * 10) / 10

/** The catch-up in a line: for the log's message and a terminal's progress line. */
export function describeCatchUp(status: CatchUp, head: number, nodeHead: number): string {
  const eta = status.etaSeconds === null ? 'working out the rate' : `about ${roughDuration(status.etaSeconds)} left`
  return `catching up: block ${head} of ${nodeHead}, ${status.blocksLeft} to go, ${status.blocksPerSecond} blocks/s, ${status.txsPerSecond} tx/s, ${eta}`
}
