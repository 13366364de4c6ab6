import type { Database } from 'bun:sqlite'
import { backfillCreations } from '../creations.ts'
import { backfillInternalCalls } from '../internalCalls.ts'
import type { Migration } from '../migrations.ts'

// The spool's own tables on the embedded engine, and the runner that applies migrations to a
// spool file (the derived streams' are declared the same way and rendered for PostgreSQL by
// ../postgres/streamTables.ts).

/** The spool's own migrations, in order. */
export const spoolMigrations: Migration[] = [
  {
    id: 'spool/001-core',
    sql: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE blocks (
        number INTEGER PRIMARY KEY,
        hash BLOB NOT NULL UNIQUE,
        parent_hash BLOB NOT NULL,
        timestamp INTEGER NOT NULL,          -- seconds
        miner BLOB,
        gas_used INTEGER NOT NULL,
        gas_limit INTEGER NOT NULL,
        base_fee TEXT,                       -- wei, decimal
        size INTEGER,
        tx_count INTEGER NOT NULL
      );

      -- On a node without mini-blocks every block is its own mini-block.
      CREATE TABLE minis (
        number INTEGER PRIMARY KEY,
        block_number INTEGER NOT NULL,
        hash BLOB,
        timestamp_us INTEGER NOT NULL,       -- microseconds
        tx_count INTEGER NOT NULL
      );
      CREATE INDEX minis_block ON minis(block_number);

      CREATE TABLE txs (
        id INTEGER PRIMARY KEY,              -- block_number * 2^20 + index
        hash BLOB NOT NULL UNIQUE,
        block_number INTEGER NOT NULL,
        tx_index INTEGER NOT NULL,
        from_addr BLOB NOT NULL,
        to_addr BLOB,
        created BLOB,                        -- contract address a creation made
        value TEXT NOT NULL,                 -- wei, decimal
        nonce INTEGER NOT NULL,
        type INTEGER NOT NULL,
        gas INTEGER NOT NULL,
        gas_price TEXT,
        max_fee TEXT,
        max_priority_fee TEXT,
        input BLOB NOT NULL,
        status INTEGER NOT NULL,             -- 1 success, 0 reverted
        gas_used INTEGER NOT NULL,
        effective_gas_price TEXT,
        log_count INTEGER NOT NULL
      );
      CREATE INDEX txs_from ON txs(from_addr, id);
      CREATE INDEX txs_to ON txs(to_addr, id);

      -- The log index is per transaction on this chain: the identity is (transaction, index).
      CREATE TABLE logs (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block_number INTEGER NOT NULL,
        address BLOB NOT NULL,
        topic0 BLOB,
        topic1 BLOB,
        topic2 BLOB,
        topic3 BLOB,
        data BLOB NOT NULL,
        PRIMARY KEY (tx_id, log_index)
      ) WITHOUT ROWID;
      CREATE INDEX logs_address ON logs(address, tx_id);
      CREATE INDEX logs_topic0 ON logs(topic0, tx_id);

      -- The call tree of each transaction, as the node's call tracer gave it (JSON).
      CREATE TABLE traces (
        tx_id INTEGER PRIMARY KEY,
        trace TEXT NOT NULL
      );

      -- Derived streams: one cursor each, over (tx_id, log_index) of the logs table.
      CREATE TABLE stream_cursors (
        name TEXT PRIMARY KEY,
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        block_number INTEGER NOT NULL,
        updated_at INTEGER NOT NULL          -- unix milliseconds
      );
    `,
  },
  {
    // Two lookups the read API answers, made by the explorer's migration 001 until the spool
    // owned them (a service adds no index to the spool's tables). A spool made before this keeps
    // its data: the old names are dropped and the same indexes made under the spool's names.
    id: 'spool/002-active-blocks-and-mini-hashes',
    sql: `
      DROP INDEX IF EXISTS explorer_blocks_active;
      DROP INDEX IF EXISTS explorer_minis_hash;
      -- The newest blocks that carried transactions (charts, active=1): on an idle chain most
      -- blocks are empty, and without this every empty block would be walked.
      CREATE INDEX IF NOT EXISTS blocks_active ON blocks(number) WHERE tx_count > 0;
      -- A mini-block is addressed by hash as well as by number.
      CREATE INDEX IF NOT EXISTS minis_hash ON minis(hash);
    `,
  },
  {
    // Runs of blocks the node had lost before the spool copied them, recorded when the operator
    // chose to move on (spool.onHistoryGap = "record").
    id: 'spool/003-history-gaps',
    sql: `
      CREATE TABLE history_gaps (
        from_block INTEGER PRIMARY KEY,
        to_block INTEGER NOT NULL,
        recorded_at INTEGER NOT NULL         -- unix milliseconds
      );
    `,
  },
  {
    // Every contract creation, by the address made (src/spool/creations.ts): the transactions'
    // own and those of the CREATE and CREATE2 frames of their call trees. `frame` is the
    // creating frame's path in the tree ("0.2.1"), null for a transaction's own creation. An
    // address made again after its contract was destroyed has a row per creation.
    id: 'spool/004-contract-creations',
    sql: `
      CREATE TABLE contract_creations (
        address BLOB NOT NULL,
        tx_id INTEGER NOT NULL,
        block_number INTEGER NOT NULL,
        creator BLOB NOT NULL,               -- the transaction's sender, or the creating frame's
        frame TEXT,
        PRIMARY KEY (address, tx_id)
      ) WITHOUT ROWID;
      CREATE INDEX contract_creations_tx ON contract_creations(tx_id);
    `,
    fill: backfillCreations,
  },
  {
    // Verified contracts (docs/verification.md): what a verification proved of an address, kept
    // beside the chain it describes. `block_number` is the block of the contract's creation, so
    // a reorganisation that takes the creation back takes the verification with it (rollbackTo).
    id: 'spool/005-verified-contracts',
    sql: `
      CREATE TABLE verified_contracts (
        id INTEGER PRIMARY KEY,              -- the match id
        address BLOB NOT NULL UNIQUE,
        block_number INTEGER,                -- the creation's block; null when none is known (code from genesis)
        match TEXT NOT NULL,                 -- 'exact_match' or 'match'
        creation_match TEXT,                 -- the same words, or null when not compared
        runtime_match TEXT,
        origin TEXT NOT NULL,                -- how it was verified: 'etherscan', 'sourcify', 'stack'
        name TEXT NOT NULL,                  -- the contract's name
        compiler_version TEXT NOT NULL,      -- the long form, v0.8.37+commit.f401782d
        code_hash BLOB,                      -- keccak of the runtime code, immutables and metadata zeroed
        verified_at INTEGER NOT NULL,        -- unix milliseconds
        details TEXT NOT NULL                -- JSON: the ABI, sources, settings, constructor arguments, input
      );
      CREATE INDEX verified_contracts_code ON verified_contracts(code_hash);
      CREATE INDEX verified_contracts_block ON verified_contracts(block_number);

      -- A proxy whose implementation someone confirmed (Etherscan's verifyproxycontract).
      CREATE TABLE verified_proxies (
        address BLOB PRIMARY KEY,
        implementation BLOB NOT NULL,
        block_number INTEGER,                -- the block the confirmation read the implementation at
        verified_at INTEGER NOT NULL
      );
    `,
  },
  {
    // The lookups of an address's lists (docs/etherscan.md): each walks an index in key order and
    // stops at its page, never a scan of everything an address ever did.
    // - txs_created: the creation that made a contract is in the contract's own list.
    // - internal_calls: every address a transaction's nested calls moved ether to or from, or
    //   created, with the transaction; written with the traces and rolled back with them, and
    //   filled from the stored call trees for a spool made before it.
    // - the token transfer logs by sender and by recipient, partial indexes over the Transfer,
    //   TransferSingle and TransferBatch logs only (ERC-20's Transfer has no third topic,
    //   ERC-721's has the token id there), so the other logs pay nothing for them.
    // - blocks by time (a block by its time) and by miner (the blocks an address mined).
    // - each transaction's cumulative gas (its block's gas used up to and including it, as its
    //   receipt says), kept rather than summed again for every row of a list.
    id: 'spool/006-address-lists',
    sql: `
      ALTER TABLE txs ADD COLUMN cumulative_gas_used INTEGER;
      UPDATE txs SET cumulative_gas_used = running.total
        FROM (SELECT id, sum(gas_used) OVER (PARTITION BY block_number ORDER BY id) AS total FROM txs) AS running
        WHERE running.id = txs.id;

      CREATE INDEX txs_created ON txs(created) WHERE created IS NOT NULL;

      CREATE TABLE internal_calls (
        address BLOB NOT NULL,
        tx_id INTEGER NOT NULL,
        PRIMARY KEY (address, tx_id)
      ) WITHOUT ROWID;
      CREATE INDEX internal_calls_tx ON internal_calls(tx_id);

      CREATE INDEX logs_erc20_from ON logs(topic1, tx_id) WHERE topic0 = X'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' AND topic3 IS NULL;
      CREATE INDEX logs_erc20_to ON logs(topic2, tx_id) WHERE topic0 = X'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' AND topic3 IS NULL;
      CREATE INDEX logs_erc721_from ON logs(topic1, tx_id) WHERE topic0 = X'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' AND topic3 IS NOT NULL;
      CREATE INDEX logs_erc721_to ON logs(topic2, tx_id) WHERE topic0 = X'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef' AND topic3 IS NOT NULL;
      CREATE INDEX logs_erc1155_single_from ON logs(topic2, tx_id) WHERE topic0 = X'c3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
      CREATE INDEX logs_erc1155_single_to ON logs(topic3, tx_id) WHERE topic0 = X'c3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62';
      CREATE INDEX logs_erc1155_batch_from ON logs(topic2, tx_id) WHERE topic0 = X'4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';
      CREATE INDEX logs_erc1155_batch_to ON logs(topic3, tx_id) WHERE topic0 = X'4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb';

      CREATE INDEX blocks_time ON blocks(timestamp, number);
      CREATE INDEX blocks_miner ON blocks(miner, number);
    `,
    fill: backfillInternalCalls,
  },
]

/** Applies the migrations not yet recorded, each in its own transaction. Returns the ids applied. */
export function migrate(db: Database, migrations: Migration[]): string[] {
  db.run('CREATE TABLE IF NOT EXISTS migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)')
  const done = new Set(db.query<{ id: string }, []>('SELECT id FROM migrations').all().map((row) => row.id))
  const applied: string[] = []
  for (const migration of migrations) {
    if (done.has(migration.id)) continue
    db.transaction(() => {
      db.run(migration.sql)
      migration.fill?.(db)
      if (migration.restarts) db.run('DELETE FROM stream_cursors WHERE name = ?', [migration.restarts])
      db.run('INSERT INTO migrations (id, applied_at) VALUES (?, ?)', [migration.id, Date.now()])
    }).immediate()
    applied.push(migration.id)
  }
  return applied
}
