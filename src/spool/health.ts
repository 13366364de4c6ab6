import { getMeta } from './meta.ts'
import type { Queries } from './engine.ts'
import type { PacerState } from './pacer.ts'
import type { CatchUp } from './progress.ts'
import type { HistoryGap } from './read/blocks.ts'

/** How the spool stands, as the services show it (explorer stats, exchange health). */
export type SpoolHealth = {
  chainId: number
  genesisHash: string | null
  /** The last block stored in full; null before the first. */
  spoolHeadBlock: number | null
  /** The node's head when last asked; null before the node answered. */
  nodeHeadBlock: number | null
  lagBlocks: number | null
  /** When the spool last wrote (ISO 8601). */
  updatedAt: string | null
  nodeReachable: boolean
  /** Whether the new-heads WebSocket is open (polling covers the gaps). */
  nodeSocket: boolean
  /** Whether the node gives call traces; null until known. */
  tracesAvailable: boolean | null
  /** Blocks the node no longer has and the spool never got: the spool waits at `from`. */
  historyGap: { from: number; to: number } | null
  /** Holes recorded and moved past (spool.onHistoryGap = "record"), oldest first. */
  historyGaps: HistoryGap[]
  /** The last error of the node or of the spool's writes, the first line of its message. */
  lastError: string | null
  /**
   * Why the spool cannot write its file right now (a full disk, a read-only or damaged file),
   * with what to do; null while it can. Not the node's fault: `nodeReachable` stays as it was.
   */
  storageError: string | null
  /** A catch-up under way (blocks done and left, rates, ETA); null at the head. */
  catchUp: CatchUp | null
  /** How much the spool asks the node at once, as the pacer has it now. */
  fetch: PacerState | null
  /** Something the follower keeps trying again (the node's blocks do not link, timeouts...); null when nothing is. */
  retrying: Retrying | null
  streams: Record<string, StreamHealth>
}

/** What the follower keeps trying: why, how many tries so far, since when, and the wait before the next. */
export type Retrying = { reason: string; attempts: number; since: string; nextInMs: number }

export type StreamHealth = {
  cursorBlock: number | null
  lagBlocks: number | null
  updatedAt: string | null
  /** Why the stream's last pass failed; null once a pass succeeds. */
  error: string | null
}

export function emptyHealth(chainId: number): SpoolHealth {
  return {
    chainId,
    genesisHash: null,
    spoolHeadBlock: null,
    nodeHeadBlock: null,
    lagBlocks: null,
    updatedAt: null,
    nodeReachable: false,
    nodeSocket: false,
    tracesAvailable: null,
    historyGap: null,
    historyGaps: [],
    lastError: null,
    storageError: null,
    catchUp: null,
    fetch: null,
    retrying: null,
    streams: {},
  }
}

/**
 * The meta key the indexer publishes its health under (PostgreSQL), for the instances that only
 * serve: they show the indexer's view of the node and the streams, as one stack would.
 */
export const PUBLISHED_HEALTH = 'indexer_health'

/** The health the indexer last published; null when none has yet (no indexer has written, or its tables are not made yet). */
export async function publishedHealth(db: Queries): Promise<SpoolHealth | null> {
  let text: string | null
  try {
    text = await getMeta(db, PUBLISHED_HEALTH)
  } catch (error) {
    // The schema the indexer has not made yet (undefined_table) is a stack before its first block.
    if ((error as { errno?: unknown }).errno === '42P01') return null
    throw error
  }
  return text === null ? null : (JSON.parse(text) as SpoolHealth)
}
