import type { Database } from 'bun:sqlite'
import type { Config } from '../../config/load.ts'
import { txId } from '../../spool/codec.ts'
import type { StreamDefinition } from '../../spool/streams.ts'
import { v2Events } from '../events.ts'
import { exchangeAddresses } from '../settings.ts'
import { applyV2 } from './apply.ts'
import { pairStateTable } from './pairState.ts'
import { v2Migrations } from './schema.ts'

/** The constant-product stream: pairs of the configured factory, their reserves, swaps, mints and burns. */
export function v2Stream(config: Config): StreamDefinition {
  const { v2Factory } = exchangeAddresses(config)
  return {
    name: 'v2',
    migrations: v2Migrations,
    topics: Object.values(v2Events).map((event) => event.selector),
    apply: (db, logs) => applyV2(db, logs, v2Factory),
    rollback: rollbackV2,
  }
}

/** Leaves the tables as a run that stopped at `ancestor` would have left them. */
export function rollbackV2(db: Database, ancestor: number): void {
  const firstOrphan = txId(ancestor + 1, 0)
  db.run('DELETE FROM v2_swaps WHERE tx_id >= ?', [firstOrphan])
  db.run('DELETE FROM v2_liquidity WHERE tx_id >= ?', [firstOrphan])
  pairStateTable(db).rollback(ancestor)
  db.run('DELETE FROM v2_pairs WHERE created_block > ?', [ancestor])
}
