import type { Config } from '../../config/load.ts'
import { createdTable, eventTable } from '../../spool/kit/tables.ts'
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
    tables: [createdTable('v2_pairs', 'created_block'), pairStateTable, eventTable('v2_swaps'), eventTable('v2_liquidity')],
    apply: (db, logs) => applyV2(db, logs, v2Factory),
  }
}
