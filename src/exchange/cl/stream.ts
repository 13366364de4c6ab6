import type { Config } from '../../config/load.ts'
import { createdTable, eventTable } from '../../spool/kit/tables.ts'
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
    tables: [
      createdTable('cl_tiers', 'enabled_block'),
      createdTable('cl_pools', 'created_block'),
      poolStateTable,
      tickTable,
      positionTable,
      eventTable('cl_swaps'),
      eventTable('cl_events'),
    ],
    apply: (db, logs) => applyCl(db, logs, v3Factory),
  }
}
