import { Elysia } from 'elysia'
import type { SpoolHealth } from '../../spool/health.ts'
import { spoolHead, streamPosition } from '../../spool/read.ts'
import type { IndexReader } from '../read/indexReader.ts'

/**
 * The health object: `{cursorBlock, lagBlocks, updatedAt, spoolHeadBlock, streams: {v2, cl}}`,
 * the first three describing the constant-product stream, each stream's lag counted against the
 * spool's head (never against the other stream: cl backfills from block zero on its own).
 * Read from the spool itself, so it is exact, and 503 when the tables are not there; the spool's
 * storage error (a full disk) comes from the spool's health, as the writer reports it, and on a
 * database `database` says the instance's role and who holds the indexer's lease.
 */
export function healthRoutes(index: IndexReader, spoolHealth: () => SpoolHealth, databaseHealth: () => Promise<object> = async () => ({})) {
  return new Elysia().get('/health', async () => {
    // This fails, and answers 503, while the streams' tables do not exist.
    await index.get('SELECT 1 FROM v2_pair_state, cl_pool_state LIMIT 0')
    const { spoolHeadBlock, v2, cl } = await index.spool(async (db) => {
      const head = await spoolHead(db)
      const position = async (name: string) => {
        const { cursorBlock, lagBlocks, updatedAt } = await streamPosition(db, name, head)
        return { cursorBlock, lagBlocks, updatedAt }
      }
      return { spoolHeadBlock: head, v2: await position('v2'), cl: await position('cl') }
    })
    const body = { cursorBlock: v2.cursorBlock, lagBlocks: v2.lagBlocks, updatedAt: v2.updatedAt, spoolHeadBlock, streams: { v2, cl } }
    // The health object's keys are fixed, and callers ignore others: say why the spool cannot
    // write only while it cannot, so a healthy answer keeps exactly the documented keys.
    const spoolError = spoolHealth().storageError
    // On a database, the instance's role and who holds the indexer's lease (docs/operating.md).
    const withDatabase = { ...body, ...(await databaseHealth()) }
    return spoolError === null ? withDatabase : { ...withDatabase, spoolError }
  })
}
