import type { PostgresMigration } from './migrate.ts'

// The spool's tables on PostgreSQL: the same tables, columns (in the same order), keys and
// indexes as the embedded engine's after all of src/spool/sqlite/migrations.ts, in PostgreSQL's types
// (INTEGER is bigint, BLOB bytea, TEXT text). A PostgreSQL schema starts at today's shape, so its
// first migration is the whole of it; later changes add migrations of their own, beside the
// embedded engine's. tests/spool/postgresSchema.test.ts holds the two engines' tables equal.

const TRANSFER = `'\\xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'::bytea`
const TRANSFER_SINGLE = `'\\xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'::bytea`
const TRANSFER_BATCH = `'\\x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'::bytea`

export const postgresSpoolMigrations: PostgresMigration[] = [
  {
    id: 'postgres/spool/001-core',
    sql: `
      CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);

      CREATE TABLE blocks (
        number bigint PRIMARY KEY,
        hash bytea NOT NULL UNIQUE,
        parent_hash bytea NOT NULL,
        timestamp bigint NOT NULL,
        miner bytea,
        gas_used bigint NOT NULL,
        gas_limit bigint NOT NULL,
        base_fee text,
        size bigint,
        tx_count bigint NOT NULL
      );
      CREATE INDEX blocks_active ON blocks(number) WHERE tx_count > 0;
      CREATE INDEX blocks_time ON blocks(timestamp, number);
      CREATE INDEX blocks_miner ON blocks(miner, number);

      CREATE TABLE minis (
        number bigint PRIMARY KEY,
        block_number bigint NOT NULL,
        hash bytea,
        timestamp_us bigint NOT NULL,
        tx_count bigint NOT NULL
      );
      CREATE INDEX minis_block ON minis(block_number);
      CREATE INDEX minis_hash ON minis(hash);

      CREATE TABLE txs (
        id bigint PRIMARY KEY,
        hash bytea NOT NULL UNIQUE,
        block_number bigint NOT NULL,
        tx_index bigint NOT NULL,
        from_addr bytea NOT NULL,
        to_addr bytea,
        created bytea,
        value text NOT NULL,
        nonce bigint NOT NULL,
        type bigint NOT NULL,
        gas bigint NOT NULL,
        gas_price text,
        max_fee text,
        max_priority_fee text,
        input bytea NOT NULL,
        status bigint NOT NULL,
        gas_used bigint NOT NULL,
        effective_gas_price text,
        log_count bigint NOT NULL,
        cumulative_gas_used bigint
      );
      CREATE INDEX txs_from ON txs(from_addr, id);
      CREATE INDEX txs_to ON txs(to_addr, id);
      CREATE INDEX txs_created ON txs(created) WHERE created IS NOT NULL;

      CREATE TABLE logs (
        tx_id bigint NOT NULL,
        log_index bigint NOT NULL,
        block_number bigint NOT NULL,
        address bytea NOT NULL,
        topic0 bytea,
        topic1 bytea,
        topic2 bytea,
        topic3 bytea,
        data bytea NOT NULL,
        PRIMARY KEY (tx_id, log_index)
      );
      CREATE INDEX logs_address ON logs(address, tx_id);
      CREATE INDEX logs_topic0 ON logs(topic0, tx_id);
      CREATE INDEX logs_erc20_from ON logs(topic1, tx_id) WHERE topic0 = ${TRANSFER} AND topic3 IS NULL;
      CREATE INDEX logs_erc20_to ON logs(topic2, tx_id) WHERE topic0 = ${TRANSFER} AND topic3 IS NULL;
      CREATE INDEX logs_erc721_from ON logs(topic1, tx_id) WHERE topic0 = ${TRANSFER} AND topic3 IS NOT NULL;
      CREATE INDEX logs_erc721_to ON logs(topic2, tx_id) WHERE topic0 = ${TRANSFER} AND topic3 IS NOT NULL;
      CREATE INDEX logs_erc1155_single_from ON logs(topic2, tx_id) WHERE topic0 = ${TRANSFER_SINGLE};
      CREATE INDEX logs_erc1155_single_to ON logs(topic3, tx_id) WHERE topic0 = ${TRANSFER_SINGLE};
      CREATE INDEX logs_erc1155_batch_from ON logs(topic2, tx_id) WHERE topic0 = ${TRANSFER_BATCH};
      CREATE INDEX logs_erc1155_batch_to ON logs(topic3, tx_id) WHERE topic0 = ${TRANSFER_BATCH};

      CREATE TABLE traces (
        tx_id bigint PRIMARY KEY,
        trace text NOT NULL
      );

      CREATE TABLE stream_cursors (
        name text PRIMARY KEY,
        tx_id bigint NOT NULL,
        log_index bigint NOT NULL,
        block_number bigint NOT NULL,
        updated_at bigint NOT NULL
      );

      CREATE TABLE history_gaps (
        from_block bigint PRIMARY KEY,
        to_block bigint NOT NULL,
        recorded_at bigint NOT NULL
      );

      CREATE TABLE contract_creations (
        address bytea NOT NULL,
        tx_id bigint NOT NULL,
        block_number bigint NOT NULL,
        creator bytea NOT NULL,
        frame text,
        PRIMARY KEY (address, tx_id)
      );
      CREATE INDEX contract_creations_tx ON contract_creations(tx_id);

      CREATE TABLE verified_contracts (
        id bigint PRIMARY KEY,
        address bytea NOT NULL UNIQUE,
        block_number bigint,
        match text NOT NULL,
        creation_match text,
        runtime_match text,
        origin text NOT NULL,
        name text NOT NULL,
        compiler_version text NOT NULL,
        code_hash bytea,
        verified_at bigint NOT NULL,
        details text NOT NULL
      );
      CREATE INDEX verified_contracts_code ON verified_contracts(code_hash);
      CREATE INDEX verified_contracts_block ON verified_contracts(block_number);

      CREATE TABLE verified_proxies (
        address bytea PRIMARY KEY,
        implementation bytea NOT NULL,
        block_number bigint,
        verified_at bigint NOT NULL
      );

      CREATE TABLE internal_calls (
        address bytea NOT NULL,
        tx_id bigint NOT NULL,
        PRIMARY KEY (address, tx_id)
      );
      CREATE INDEX internal_calls_tx ON internal_calls(tx_id);
    `,
  },
]
