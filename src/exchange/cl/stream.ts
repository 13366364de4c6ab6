import type { Database } from 'bun:sqlite'
import type { Config } from '../../config/load.ts'
import { txId } from '../../spool/codec.ts'
import type { StreamDefinition } from '../../spool/streams.ts'
import { clEvents } from '../events.ts'
import { exchangeAddresses } from '../settings.ts'
import { applyCl } from './apply.ts'
import { clMigrations } from './schema.ts'
import { poolStateTable, positionTable, tickTable } from './state.ts'

/**
 * The concentrated-liquidity stream: fee tiers and pools of the configured factory, their slot
 * state, ticks, positions, swaps and liquidity events. It has its own cursor, so it backfills
 * from block zero whatever the constant-product stream has done.
 */
export function clStream(config: Config): StreamDefinition {
  const { v3Factory } = exchangeAddresses(config)
  return {
    name: 'cl',
    migrations: clMigrations,
    topics: Object.values(clEvents).map((event) => event.selector),
    apply: (db, logs) => applyCl(db, logs, v3Factory),
    rollback: rollbackCl,
  }
}

/** Leaves the tables as a run that stopped at `ancestor` would have left them. */
export function rollbackCl(db: Database, ancestor: number): void {
  const firstOrphan = txId(ancestor + 1, 0)
  db.run('DELETE FROM cl_swaps WHERE tx_id >= ?', [firstOrphan])
  db.run('DELETE FROM cl_events WHERE tx_id >= ?', [firstOrphan])
  poolStateTable(db).rollback(ancestor)
  tickTable(db).rollback(ancestor)
  positionTable(db).rollback(ancestor)
  db.run('DELETE FROM cl_pools WHERE created_block > ?', [ancestor])
  db.run('DELETE FROM cl_tiers WHERE enabled_block > ?', [ancestor])
}
