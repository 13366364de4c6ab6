import { Elysia } from 'elysia'
import { NotFoundError } from '../../errors.ts'
import { hex } from '../../eth/bytes.ts'
import { health } from '../../http/health.ts'
import { OPERATOR_PATH } from '../../ops/runtime.ts'
import { blockHash, spoolHead, streamPosition } from '../../spool/read.ts'
import type { Explorer } from '../explorer.ts'
import { FEES_STREAM } from '../feeStream.ts'
import { EXPLORER_STREAM } from '../stream.ts'
import { TALLY_STREAM } from '../tallyStream.ts'

/** The explorer's derived streams: what its answers read beside the spool's own tables. */
const STREAMS = [EXPLORER_STREAM, TALLY_STREAM, FEES_STREAM]

/**
 * What `stack status` and `stack reset` read of the explorer: its health, its stats object, and
 * the spool as the explorer reads it now, in one read (not the stats' few hundred milliseconds
 * ago): its head, the hash it holds for that block (so a reset can tell the new chain's block
 * from the old one's) and where each of the explorer's derived streams stands. Outside /api, so
 * the per-client minute counts the API's clients and never these commands; and so it answers
 * only a request straight from this machine (`local`): any other caller gets the 404 of an
 * unknown path, and no way around the minute.
 */
export function operatorRoutes(explorer: Explorer, local: (request: Request) => boolean) {
  const { db } = explorer
  const read = () =>
    db.snapshot(async (db) => {
      const head = await spoolHead(db)
      const hash = head === null ? null : await blockHash(db, head)
      const streams = await Promise.all(STREAMS.map(async (name) => [name, await streamPosition(db, name, head)] as const))
      return { head, hash: hash === null ? null : hex(hash), streams: Object.fromEntries(streams) }
    })
  return new Elysia({ name: 'explorer-operator' }).get(OPERATOR_PATH, async ({ request }) => {
    if (!local(request)) throw new NotFoundError('not found')
    return { ...health('explorer'), stats: await explorer.stats.stats(), spool: await read() }
  })
}
