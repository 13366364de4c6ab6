import type { Database } from 'bun:sqlite'
import { getCursor } from '../store.ts'
import { readStreamCursor } from '../streams.ts'

/** The last block the spool holds in full; null before the first. */
export function spoolHead(db: Database): number | null {
  const cursor = getCursor(db)
  return cursor >= 0 ? cursor : null
}

/**
 * How far a derived stream is behind the spool, in blocks: what the spool holds that the stream
 * has not derived. Null before the spool holds a block; counted from -1 before the stream's
 * first pass. The one place this is worked out (the writer's health, the exchange's /health).
 */
export function streamLag(spoolHeadBlock: number | null, cursorBlock: number | null): number | null {
  return spoolHeadBlock === null ? null : spoolHeadBlock - (cursorBlock ?? -1)
}

/** Where a derived stream stands: its last block derived in full, its lag, its last pass (ISO 8601). */
export type StreamPosition = { cursorBlock: number | null; lagBlocks: number | null; updatedAt: string | null }

/** `name`'s position, its lag counted against `head` (the spool's head unless given). */
export function streamPosition(db: Database, name: string, head: number | null = spoolHead(db)): StreamPosition {
  const cursor = readStreamCursor(db, name)
  const cursorBlock = cursor.blockNumber >= 0 ? cursor.blockNumber : null
  return {
    cursorBlock,
    lagBlocks: streamLag(head, cursorBlock),
    updatedAt: cursor.updatedAt ? new Date(cursor.updatedAt).toISOString() : null,
  }
}

/**
 * A text that changes whenever any of the named streams moves its cursor: a cache of answers
 * derived from those streams' tables stays good while it is unchanged.
 */
export function streamsVersion(db: Database, names: readonly string[]): string {
  return names
    .map((name) => {
      const cursor = readStreamCursor(db, name)
      return `${name}:${cursor.txId}:${cursor.logIndex}`
    })
    .join(',')
}
