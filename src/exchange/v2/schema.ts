import { versionedHistorySql } from '../../spool/kit/tables.ts'
import type { Migration } from '../../spool/migrations.ts'
import { pairStateTable } from './pairState.ts'

// Tables of the constant-product stream. Addresses are 20-byte BLOBs, amounts decimal TEXT
// (reserves reach 2^112, volumes more), logs are identified as the spool identifies them:
// (tx_id, log_index), tx_id = block * 2^20 + index.
export const v2Migrations: Migration[] = [
  {
    id: 'exchange/v2/001-pairs-swaps-liquidity',
    sql: `
      -- What a pair is: fixed at its creation.
      CREATE TABLE v2_pairs (
        pair BLOB PRIMARY KEY,
        token0 BLOB NOT NULL,
        token1 BLOB NOT NULL,
        created_block INTEGER NOT NULL,
        created_tx INTEGER NOT NULL,
        created_log INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX v2_pairs_created ON v2_pairs(created_block);

      -- How a pair stands now, and (below) as it stood after each block in which it changed.
      CREATE TABLE v2_pair_state (
        pair BLOB PRIMARY KEY,
        reserve0 TEXT NOT NULL,
        reserve1 TEXT NOT NULL,
        reserves_block INTEGER,              -- the block of the Sync the reserves come from
        swap_count INTEGER NOT NULL,
        mint_count INTEGER NOT NULL,
        burn_count INTEGER NOT NULL,
        volume0 TEXT NOT NULL,               -- cumulative amount0In
        volume1 TEXT NOT NULL                -- cumulative amount1In
      ) WITHOUT ROWID;
      CREATE TABLE v2_pair_state_history (
        pair BLOB NOT NULL,
        block INTEGER NOT NULL,
        reserve0 TEXT NOT NULL,
        reserve1 TEXT NOT NULL,
        reserves_block INTEGER,
        swap_count INTEGER NOT NULL,
        mint_count INTEGER NOT NULL,
        burn_count INTEGER NOT NULL,
        volume0 TEXT NOT NULL,
        volume1 TEXT NOT NULL,
        PRIMARY KEY (pair, block)
      ) WITHOUT ROWID;
      CREATE INDEX v2_pair_state_history_block ON v2_pair_state_history(block);

      CREATE TABLE v2_swaps (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block INTEGER NOT NULL,
        pair BLOB NOT NULL,
        sender BLOB NOT NULL,
        recipient BLOB NOT NULL,
        amount0_in TEXT NOT NULL,
        amount1_in TEXT NOT NULL,
        amount0_out TEXT NOT NULL,
        amount1_out TEXT NOT NULL,
        PRIMARY KEY (tx_id, log_index)
      ) WITHOUT ROWID;
      CREATE INDEX v2_swaps_pair ON v2_swaps(pair, tx_id, log_index);
      CREATE INDEX v2_swaps_sender ON v2_swaps(sender, tx_id, log_index);

      -- Mints and burns; a mint has no recipient (the chain event carries none).
      CREATE TABLE v2_liquidity (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block INTEGER NOT NULL,
        pair BLOB NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('mint', 'burn')),
        sender BLOB NOT NULL,
        recipient BLOB,
        amount0 TEXT NOT NULL,
        amount1 TEXT NOT NULL,
        PRIMARY KEY (tx_id, log_index)
      ) WITHOUT ROWID;
      CREATE INDEX v2_liquidity_pair ON v2_liquidity(pair, tx_id, log_index);
    `,
  },
  {
    // ethUsd looks its pair up by the two tokens on every request that shows a dollar figure.
    id: 'exchange/v2/002-pairs-by-tokens',
    sql: 'CREATE INDEX v2_pairs_tokens ON v2_pairs(token0, token1);',
  },
  {
    // The state's history in the stream kit's layout: how each row stood before each block that
    // changed it, in block order. The stream derives everything again to fill it.
    id: 'exchange/v2/003-history-in-block-order',
    restarts: 'v2',
    sql: `
      DELETE FROM v2_pairs;
      DELETE FROM v2_pair_state;
      DELETE FROM v2_swaps;
      DELETE FROM v2_liquidity;
      DROP TABLE v2_pair_state_history;
      ${versionedHistorySql(pairStateTable)}
    `,
  },
]
