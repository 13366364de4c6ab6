import type { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'
import { TtlCache } from '../cache.ts'
import type { Explorer } from '../explorer.ts'
import { PAGE, clampLimit } from '../paging.ts'
import { accountRow } from '../ranking.ts'
import { BLOCK_COLUMNS, blockRow, chartPoint, TX_COLUMNS, txSummary, type BlockRecord, type TxRecord } from '../rows.ts'

/** Spec 03 "/overview": fixed sizes, nothing configurable. */
const OVERVIEW = { charts: 48, blocks: 8, txs: 12, accounts: 8 }
/** Below this many blocks with transactions, the chart falls back to every block. */
const MIN_ACTIVE_POINTS = 4

/**
 * Chart points, oldest first. Blocks with transactions are preferred (an idle chain would
 * otherwise draw a flat line of empty blocks); only when fewer than four exist does the chart
 * take every block. So the points are not evenly spaced in time.
 */
export function chartPoints(db: Database, limit: number) {
  type Row = { number: number; timestamp: number; tx_count: number; gas_used: number }
  const columns = 'number, timestamp, tx_count, gas_used'
  // Enough rows to know whether four blocks with transactions exist, whatever the limit asks.
  let rows = db.query<Row, [number]>(`SELECT ${columns} FROM blocks WHERE tx_count > 0 ORDER BY number DESC LIMIT ?`).all(Math.max(limit, MIN_ACTIVE_POINTS))
  if (rows.length < MIN_ACTIVE_POINTS) rows = db.query<Row, [number]>(`SELECT ${columns} FROM blocks ORDER BY number DESC LIMIT ?`).all(limit)
  return rows.slice(0, limit).reverse().map(chartPoint)
}

export function overviewRoutes(explorer: Explorer) {
  const { db, registry } = explorer
  const overview = () => {
    explorer.tally.catchUp()
    return {
      stats: explorer.stats.stats(),
      charts: chartPoints(db, OVERVIEW.charts),
      blocks: db
        .query<BlockRecord, [number]>(`SELECT ${BLOCK_COLUMNS} FROM blocks b WHERE b.tx_count > 0 ORDER BY b.number DESC LIMIT ?`)
        .all(OVERVIEW.blocks)
        .map(blockRow),
      txs: db
        .query<TxRecord, [number]>(`SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.number = t.block_number ORDER BY t.id DESC LIMIT ?`)
        .all(OVERVIEW.txs)
        .map((row) => txSummary(row, registry)),
      topAccounts: explorer.ranking
        .ranked()
        .slice(0, OVERVIEW.accounts)
        .map((key) => accountRow(key, explorer.tally, registry)),
    }
  }
  // The overview is the stats plus four small reads, kept as briefly as the stats themselves.
  const cache = new TtlCache<ReturnType<typeof overview>>(explorer.timings.statsCacheMs, 1)
  return new Elysia({ name: 'explorer-overview' })
    .get('/overview', () => cache.get('overview', overview))
    .get('/charts', ({ query }) => chartPoints(db, clampLimit(query.limit, PAGE.chart)))
}
