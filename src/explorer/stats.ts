import type { SpoolDb } from '../spool/engine.ts'
import { decimal, quantityOrNull } from '../eth/quantity.ts'
import type { SpoolHealth } from '../spool/health.ts'
import { latestMini, recentBlockTimes, recentMiniTimes } from '../spool/read.ts'
import type { LiveNode } from './node.ts'
import { valueOf } from './node.ts'
import { totalsByKind } from './read/tokens.ts'
import { EXPLORER_STREAM } from './stream.ts'
import type { ChainTally } from './tally.ts'
import { TALLY_STREAM } from './tallyStream.ts'

/** Blocks the cadence figures average over. */
const CADENCE_WINDOW = 100

export type Stats = Record<string, number | string | boolean | null | { from: number; to: number }>

/** What the node said at the last tick: its head and gas price. */
type NodeFigures = { head: number | null; gasPrice: string | null; reachable: boolean }

/**
 * The stats object (docs/explorer.md): a flat object of counters and freshness keys.
 * A background task recomputes it once a second, asking the node for its head and gas price in
 * one batch; /stats serves the cached object while it is younger than `cacheMs` (about 0.6 s)
 * and otherwise recomputes it from the spool with the node figures of the last tick. Listeners
 * (the /live streams) hear of each change, never of a tick that changed nothing.
 */
export class StatsService {
  private current: { stats: Stats; json: string; bytes: Uint8Array; at: number } | null = null
  private lastPushed = ''
  private node: NodeFigures = { head: null, gasPrice: null, reachable: false }
  private timer: ReturnType<typeof setInterval> | null = null
  private ticking = false
  private refreshing: Promise<void> | null = null
  private readonly listeners = new Set<(json: string) => void>()

  constructor(
    private readonly db: SpoolDb,
    private readonly health: () => SpoolHealth,
    private readonly tally: ChainTally,
    private readonly live: LiveNode,
    private readonly onError: (error: unknown) => void,
    private readonly cacheMs = 600,
  ) {}

  start(intervalMs = 1000): void {
    if (this.timer) return
    void this.tick()
    this.timer = setInterval(() => void this.tick(), intervalMs)
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** The stats as JSON text, fresh within the cache window. */
  async json(): Promise<string> {
    return (await this.fresh()).json
  }

  /**
   * The same JSON as the bytes that go out: /stats copies them. Fresh ones are given at once,
   * not a promise: the hottest route of the explorer then takes no turn of the event loop.
   */
  bytes(): Uint8Array | Promise<Uint8Array> {
    const current = this.current
    if (current && Date.now() - current.at <= this.cacheMs) return current.bytes
    return this.fresh().then((fresh) => fresh.bytes)
  }

  async stats(): Promise<Stats> {
    return (await this.fresh()).stats
  }

  /** The stats last computed (by the background tick or a request), without computing them; null before the first. */
  latest(): Stats | null {
    return this.current?.stats ?? null
  }

  /** Called with the JSON of every new stats object; returns the unsubscribe. */
  onChange(listener: (json: string) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** One background pass: ask the node, recompute, tell listeners. */
  async tick(): Promise<void> {
    if (this.ticking) return
    this.ticking = true
    try {
      const results = await this.live.batch(
        [
          { method: 'eth_blockNumber', params: [] },
          { method: 'eth_gasPrice', params: [] },
        ],
        { force: true },
      )
      const head = valueOf<string>(results, 0)
      const gasPrice = valueOf<string>(results, 1)
      this.node = { head: quantityOrNull(head), gasPrice: decimal(gasPrice), reachable: results !== null }
      await this.refresh()
      const { json } = this.current!
      if (json !== this.lastPushed) {
        this.lastPushed = json
        for (const listener of this.listeners) listener(json)
      }
    } catch (error) {
      // The next tick tries again; a request meanwhile gets the last good object.
      this.onError(error)
    } finally {
      this.ticking = false
    }
  }

  private async fresh() {
    if (!this.current || Date.now() - this.current.at > this.cacheMs) await this.refresh()
    return this.current!
  }

  /** Computes the stats again; requests that arrive meanwhile wait for the same computation. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.compute()
      .then((stats) => {
        const json = JSON.stringify(stats)
        this.current = { stats, json, bytes: new TextEncoder().encode(json), at: Date.now() }
      })
      .finally(() => (this.refreshing = null))
    return this.refreshing
  }

  private async compute(): Promise<Stats> {
    const health = this.health()
    const tally = await this.tally.totals()
    const indexedBlock = health.spoolHeadBlock
    // The node's head as the last tick read it; while the node is unreachable, the last head the
    // spool saw (so the lag keeps meaning "behind the chain as last known"). Never behind what the
    // spool holds: the tick may be a second older than the spool's last write.
    const nodeHead = this.node.head ?? health.nodeHeadBlock
    const latestBlock = nodeHead === null || indexedBlock === null ? nodeHead : Math.max(nodeHead, indexedBlock)
    const mini = await latestMini(this.db)
    const tokens = await totalsByKind(this.db)
    const byKind = (kind: number) => tokens.find((row) => row.kind === kind)
    return {
      latestBlock,
      indexedBlock,
      indexLag: latestBlock === null || indexedBlock === null ? null : latestBlock - indexedBlock,
      derivedLag: derivedLag(health),
      blocks: tally.blocks,
      transactions: tally.transactions,
      wallets: tally.wallets,
      accounts: tally.accounts,
      contracts: tally.contracts,
      // A number, as ever: exact up to 2^53 gas (the tally keeps the exact total).
      gasUsed: Number(tally.gasUsed),
      tokens: byKind(20)?.contracts ?? 0,
      tokenTransfers: byKind(20)?.transfers ?? 0,
      nftCollections: (byKind(721)?.contracts ?? 0) + (byKind(1155)?.contracts ?? 0),
      nftTransfers: (byKind(721)?.transfers ?? 0) + (byKind(1155)?.transfers ?? 0),
      blockTimeMs: cadence((await recentBlockTimes(this.db, CADENCE_WINDOW + 1)).map((seconds) => seconds * 1000)),
      miniBlockTimeMs: cadence((await recentMiniTimes(this.db, CADENCE_WINDOW + 1)).map((micros) => micros / 1000)),
      gasPrice: this.node.gasPrice,
      miniBlockHead: mini?.number ?? null,
      miniBlockHeadBlock: mini?.blockNumber ?? null,
      miniBlockHeadTimestamp_us: mini?.timestampUs ?? null,
      nodeReachable: this.node.reachable,
      spoolNodeReachable: health.nodeReachable,
      spoolUpdatedAt: health.updatedAt,
      tracesAvailable: health.tracesAvailable,
      historyGap: health.historyGap,
      // Holes the spool recorded and moved past (spool.onHistoryGap = "record"): how many, how
      // many blocks they hold, and the newest.
      recordedGaps: health.historyGaps.length,
      recordedGapBlocks: health.historyGaps.reduce((sum, gap) => sum + gap.to - gap.from + 1, 0),
      lastRecordedGap: health.historyGaps.at(-1) ?? null,
      // A catch-up under way (null at the head): blocks left, rates, seconds left.
      catchUpBlocksLeft: health.catchUp?.blocksLeft ?? null,
      catchUpBlocksPerSecond: health.catchUp?.blocksPerSecond ?? null,
      catchUpTxsPerSecond: health.catchUp?.txsPerSecond ?? null,
      catchUpEtaSeconds: health.catchUp?.etaSeconds ?? null,
      // What the spool keeps trying again, and how many times; null and 0 when nothing is.
      spoolRetrying: health.retrying?.reason ?? null,
      spoolRetryAttempts: health.retrying?.attempts ?? 0,
      // Why the spool cannot write (a full disk, a read-only or damaged file); null while it can.
      spoolError: health.storageError,
    }
  }
}

/**
 * How far the explorer's derived tables are behind the spool, in blocks: the larger lag of its
 * two streams (transfers, tally), since its answers read both; null while either is unknown.
 */
function derivedLag(health: SpoolHealth): number | null {
  let worst: number | null = null
  for (const name of [EXPLORER_STREAM, TALLY_STREAM]) {
    const lag = health.streams[name]?.lagBlocks ?? null
    if (lag === null) return null
    worst = worst === null ? lag : Math.max(worst, lag)
  }
  return worst
}

/** The mean interval between the newest times given (milliseconds, newest first). */
function cadence(times: number[]): number | null {
  if (times.length < 2) return null
  return Math.round((times[0]! - times.at(-1)!) / (times.length - 1))
}
