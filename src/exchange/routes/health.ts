import { Elysia } from 'elysia'
import type { SpoolHealth } from '../../spool/health.ts'
import type { IndexReader } from '../read/indexReader.ts'

type StreamEntry = { cursorBlock: number | null; lagBlocks: number | null; updatedAt: string | null }

/**
 * Spec 02 "Health object": `{cursorBlock, lagBlocks, updatedAt, spoolHeadBlock, streams: {v2, cl}}`,
 * the first three describing the constant-product stream, each stream's lag counted against the
 * spool's head (never against the other stream: cl backfills from block zero on its own).
 * Read from the spool itself, so it is exact, and 503 when the tables are not there; the spool's
 * storage error (a full disk) comes from the spool's health, as the writer reports it.
 */
export function healthRoutes(index: IndexReader, spoolHealth: () => SpoolHealth) {
  return new Elysia().get('/health', () => {
    // Compiling this fails, and answers 503, while the streams' tables do not exist.
    index.get('SELECT 1 FROM v2_pair_state, cl_pool_state LIMIT 0')
    const head = index.get<{ value: string }>(`SELECT value FROM meta WHERE key = 'cursor'`)
    const spoolHeadBlock = head && Number(head.value) >= 0 ? Number(head.value) : null
    const cursors = index.all<{ name: string; block_number: number; updated_at: number }>(
      `SELECT name, block_number, updated_at FROM stream_cursors WHERE name IN ('v2', 'cl')`,
    )
    const entry = (name: string): StreamEntry => {
      const cursor = cursors.find((row) => row.name === name)
      const cursorBlock = cursor && cursor.block_number >= 0 ? cursor.block_number : null
      return {
        cursorBlock,
        lagBlocks: spoolHeadBlock === null ? null : spoolHeadBlock - (cursorBlock ?? -1),
        updatedAt: cursor ? new Date(cursor.updated_at).toISOString() : null,
      }
    }
    const v2 = entry('v2')
    const body = { cursorBlock: v2.cursorBlock, lagBlocks: v2.lagBlocks, updatedAt: v2.updatedAt, spoolHeadBlock, streams: { v2, cl: entry('cl') } }
    // Spec 02 fixes the keys, and callers ignore others: say why the spool cannot write only
    // while it cannot, so a healthy answer stays exactly the spec's.
    const spoolError = spoolHealth().storageError
    return spoolError === null ? body : { ...body, spoolError }
  })
}
