import type { SpoolDb } from '../../spool/engine.ts'
import { Elysia } from 'elysia'
import type { Explorer } from '../explorer.ts'
import { PAGE, clampLimit } from '../paging.ts'
import { rankedAccounts } from '../read/tally.ts'
import { accountRow, blockRow, chartPoint, txSummary } from '../rows.ts'
import { latestBlockHeaders, latestBlocks, latestTxs } from '../../spool/read.ts'

/** `/overview`: fixed sizes, nothing configurable. */
const OVERVIEW = { charts: 48, blocks: 8, txs: 12, accounts: 8 }
/** Below this many blocks with transactions, the chart falls back to every block. */
const MIN_ACTIVE_POINTS = 4

/**
 * Chart points, oldest first. Blocks with transactions are preferred (an idle chain would
 * otherwise draw a flat line of empty blocks); only when fewer than four exist does the chart
 * take every block. So the points are not evenly spaced in time.
 */
export async function chartPoints(db: SpoolDb, limit: number) {
  // Enough blocks to know whether four with transactions exist, whatever the limit asks.
  let blocks = await latestBlockHeaders(db, { limit: Math.max(limit, MIN_ACTIVE_POINTS), active: true })
  if (blocks.length < MIN_ACTIVE_POINTS) blocks = await latestBlockHeaders(db, { limit })
  return blocks.slice(0, limit).reverse().map(chartPoint)
}

export function overviewRoutes(explorer: Explorer) {
  const { db, registry } = explorer
  const overview = async () => {
    const txs = await latestTxs(db, { limit: OVERVIEW.txs })
    const name = await explorer.known.namer(txs.map((tx) => tx.to))
    return {
      stats: await explorer.stats.stats(),
      charts: await chartPoints(db, OVERVIEW.charts),
      blocks: (await latestBlocks(db, { limit: OVERVIEW.blocks, active: true })).map(blockRow),
      txs: txs.map((tx) => txSummary(tx, registry, name)),
      topAccounts: (await rankedAccounts(db, { limit: OVERVIEW.accounts, offset: 0 })).map((account) => accountRow(account, registry)),
    }
  }
  // The overview is the stats plus four small reads, kept as briefly as the stats themselves.
  return new Elysia({ name: 'explorer-overview' })
    .get('/overview', () => explorer.lists.answer('overview', overview))
    .get('/charts', ({ query }) => {
      const limit = clampLimit(query.limit, PAGE.chart)
      return explorer.lists.answer(`charts:${limit}`, () => chartPoints(db, limit))
    })
}
