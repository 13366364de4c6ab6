import { versionedHistorySql } from '../../spool/kit/tables.ts'
import type { Migration } from '../../spool/migrations.ts'
import { poolStateTable, positionTable, tickTable } from './state.ts'

// Tables of the concentrated stream, apart from the constant-product ones (the
// families are not variants of one another). Q64.96 prices, liquidity and amounts are decimal
// TEXT, signed where the chain's value is signed; ticks fit an INTEGER.
const stateColumns = {
  pool: `sqrt_price_x96 TEXT NOT NULL, tick INTEGER, liquidity TEXT NOT NULL, balance0 TEXT NOT NULL, balance1 TEXT NOT NULL,
         swap_count INTEGER NOT NULL, mint_count INTEGER NOT NULL, burn_count INTEGER NOT NULL, collect_count INTEGER NOT NULL`,
  tick: 'liquidity_gross TEXT NOT NULL, liquidity_net TEXT NOT NULL',
  position: `liquidity TEXT NOT NULL, deposited0 TEXT NOT NULL, deposited1 TEXT NOT NULL, withdrawn0 TEXT NOT NULL, withdrawn1 TEXT NOT NULL,
             collected0 TEXT NOT NULL, collected1 TEXT NOT NULL, last_block INTEGER NOT NULL, last_tx INTEGER NOT NULL,
             last_log INTEGER NOT NULL, closed INTEGER NOT NULL`,
}

export const clMigrations: Migration[] = [
  {
    id: 'exchange/cl/001-tiers-pools-ticks-positions',
    sql: `
      -- A fee can be enabled once and never changes, so a tier is a row, not a state.
      CREATE TABLE cl_tiers (
        fee INTEGER PRIMARY KEY,             -- millionths
        tick_spacing INTEGER NOT NULL,
        enabled_block INTEGER NOT NULL
      );

      CREATE TABLE cl_pools (
        pool BLOB PRIMARY KEY,
        token0 BLOB NOT NULL,
        token1 BLOB NOT NULL,
        fee INTEGER NOT NULL,
        tick_spacing INTEGER NOT NULL,
        created_block INTEGER NOT NULL,
        created_tx INTEGER NOT NULL,
        created_log INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX cl_pools_created ON cl_pools(created_block);

      -- Slot state (price, tick, active liquidity), balances and counters; tick is null until initialised.
      CREATE TABLE cl_pool_state (pool BLOB PRIMARY KEY, ${stateColumns.pool}) WITHOUT ROWID;
      CREATE TABLE cl_pool_state_history (pool BLOB NOT NULL, block INTEGER NOT NULL, ${stateColumns.pool},
        PRIMARY KEY (pool, block)) WITHOUT ROWID;
      CREATE INDEX cl_pool_state_history_block ON cl_pool_state_history(block);

      -- Every tick a position ever bounded; initialised while liquidity_gross is not zero.
      CREATE TABLE cl_ticks (pool BLOB NOT NULL, tick INTEGER NOT NULL, ${stateColumns.tick},
        PRIMARY KEY (pool, tick)) WITHOUT ROWID;
      CREATE TABLE cl_ticks_history (pool BLOB NOT NULL, tick INTEGER NOT NULL, block INTEGER NOT NULL, ${stateColumns.tick},
        PRIMARY KEY (pool, tick, block)) WITHOUT ROWID;
      CREATE INDEX cl_ticks_history_block ON cl_ticks_history(block);

      -- Positions as the pool keys them: (owner, tickLower, tickUpper); the owner of every
      -- position-manager position is the manager itself.
      CREATE TABLE cl_positions (pool BLOB NOT NULL, owner BLOB NOT NULL, tick_lower INTEGER NOT NULL, tick_upper INTEGER NOT NULL,
        ${stateColumns.position}, PRIMARY KEY (pool, owner, tick_lower, tick_upper)) WITHOUT ROWID;
      CREATE INDEX cl_positions_activity ON cl_positions(closed, last_tx, last_log);
      CREATE INDEX cl_positions_owner ON cl_positions(owner, last_tx, last_log);
      CREATE TABLE cl_positions_history (pool BLOB NOT NULL, owner BLOB NOT NULL, tick_lower INTEGER NOT NULL, tick_upper INTEGER NOT NULL,
        block INTEGER NOT NULL, ${stateColumns.position},
        PRIMARY KEY (pool, owner, tick_lower, tick_upper, block)) WITHOUT ROWID;
      CREATE INDEX cl_positions_history_block ON cl_positions_history(block);

      -- Each swap with the pool's state right after it.
      CREATE TABLE cl_swaps (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block INTEGER NOT NULL,
        pool BLOB NOT NULL,
        sender BLOB NOT NULL,
        recipient BLOB NOT NULL,
        amount0 TEXT NOT NULL,               -- signed: into the pool positive, out negative
        amount1 TEXT NOT NULL,
        sqrt_price_x96 TEXT NOT NULL,
        liquidity TEXT NOT NULL,
        tick INTEGER NOT NULL,
        PRIMARY KEY (tx_id, log_index)
      ) WITHOUT ROWID;
      CREATE INDEX cl_swaps_pool ON cl_swaps(pool, tx_id, log_index);
      CREATE INDEX cl_swaps_sender ON cl_swaps(sender, tx_id, log_index);

      -- Mints, burns and collects, signed from the pool's side (docs/exchange.md "Streams").
      CREATE TABLE cl_events (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block INTEGER NOT NULL,
        pool BLOB NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('mint', 'burn', 'collect')),
        owner BLOB NOT NULL,
        sender BLOB,
        recipient BLOB,
        tick_lower INTEGER NOT NULL,
        tick_upper INTEGER NOT NULL,
        liquidity TEXT,                      -- null on a collect
        amount0 TEXT NOT NULL,
        amount1 TEXT NOT NULL,
        PRIMARY KEY (tx_id, log_index)
      ) WITHOUT ROWID;
      CREATE INDEX cl_events_pool ON cl_events(pool, tx_id, log_index);
      CREATE INDEX cl_events_owner ON cl_events(owner, tx_id, log_index);
    `,
  },
  {
    // ethUsd falls back to a pool of the two tokens: looked up by them, not scanned for.
    id: 'exchange/cl/002-pools-by-tokens',
    sql: 'CREATE INDEX cl_pools_tokens ON cl_pools(token0, token1);',
  },
  {
    // The state's history in the stream kit's layout: how each row stood before each block that
    // changed it, in block order. The stream derives everything again to fill it.
    id: 'exchange/cl/003-history-in-block-order',
    restarts: 'cl',
    sql: `
      DELETE FROM cl_tiers;
      DELETE FROM cl_pools;
      DELETE FROM cl_pool_state;
      DELETE FROM cl_ticks;
      DELETE FROM cl_positions;
      DELETE FROM cl_swaps;
      DELETE FROM cl_events;
      DROP TABLE cl_pool_state_history;
      DROP TABLE cl_ticks_history;
      DROP TABLE cl_positions_history;
      ${versionedHistorySql(poolStateTable)}
      ${versionedHistorySql(tickTable)}
      ${versionedHistorySql(positionTable)}
    `,
  },
  {
    // The same table with its kinds checked by equalities: SQLite builds a lookup table for an
    // IN list of three at every insert, which cost about 1.5 µs of each row's 5.
    id: 'exchange/cl/004-events-kind-check-without-a-list',
    sql: `
      CREATE TABLE cl_events_next (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block INTEGER NOT NULL,
        pool BLOB NOT NULL,
        kind TEXT NOT NULL CHECK (kind = 'mint' OR kind = 'burn' OR kind = 'collect'),
        owner BLOB NOT NULL,
        sender BLOB,
        recipient BLOB,
        tick_lower INTEGER NOT NULL,
        tick_upper INTEGER NOT NULL,
        liquidity TEXT,
        amount0 TEXT NOT NULL,
        amount1 TEXT NOT NULL,
        PRIMARY KEY (tx_id, log_index)
      ) WITHOUT ROWID;
      INSERT INTO cl_events_next SELECT * FROM cl_events;
      DROP TABLE cl_events;
      ALTER TABLE cl_events_next RENAME TO cl_events;
      CREATE INDEX cl_events_pool ON cl_events(pool, tx_id, log_index);
      CREATE INDEX cl_events_owner ON cl_events(owner, tx_id, log_index);
    `,
  },
]
