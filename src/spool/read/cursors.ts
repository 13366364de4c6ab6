import { GET_META_SQL } from '../meta.ts'
import type { SpoolDb } from '../engine.ts'
import { STREAM_CURSOR_SQL, streamCursorOf, type StreamCursor, type StreamCursorRow } from '../streams.ts'

/**
 * The spool's head and its block's hash, in one query: a key that changes when a block is added or
 * taken back by a reorganisation (null and null before the first block).
 */
export async function spoolTip(db: SpoolDb): Promise<{ head: number | null; hash: Uint8Array | null }> {
  const row = await db.get<{ cursor: string; hash: Uint8Array | null }>(
    `SELECT m.value AS cursor, b.hash FROM meta m LEFT JOIN blocks b ON b.number = CAST(m.value AS BIGINT) WHERE m.key = 'cursor'`,
  )
  const cursor = row === null ? -1 : Number(row.cursor)
  return cursor >= 0 ? { head: cursor, hash: row!.hash } : { head: null, hash: null }
}

/** The last block the spool holds in full; null before the first. */
export async function spoolHead(db: SpoolDb): Promise<number | null> {
  const value = (await db.get<{ value: string }>(GET_META_SQL, 'cursor'))?.value
  const cursor = value === undefined ? -1 : Number(value)
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

/** A derived stream's cursor, as the reader sees it. */
export async function streamCursor(db: SpoolDb, name: string): Promise<StreamCursor> {
  return streamCursorOf(await db.get<StreamCursorRow>(STREAM_CURSOR_SQL, name))
}

/** `name`'s position, its lag counted against `head` (the spool's head unless given). */
export async function streamPosition(db: SpoolDb, name: string, head?: number | null): Promise<StreamPosition> {
  return positionOf(await streamCursor(db, name), head === undefined ? await spoolHead(db) : head)
}

/** A stream's position from its cursor, its lag counted against `head`. */
export function positionOf(cursor: StreamCursor, head: number | null): StreamPosition {
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
export async function streamsVersion(db: SpoolDb, names: readonly string[]): Promise<string> {
  const cursors = await Promise.all(names.map((name) => streamCursor(db, name)))
  return names.map((name, index) => `${name}:${cursors[index]!.txId}:${cursors[index]!.logIndex}`).join(',')
}
