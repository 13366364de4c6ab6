import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { parseConfig } from '../../src/config/load.ts'
import { clMigrations } from '../../src/exchange/cl/schema.ts'
import { v2Migrations } from '../../src/exchange/v2/schema.ts'
import { explorerMigrations } from '../../src/explorer/stream.ts'
import { tallyMigrations } from '../../src/explorer/tallyStream.ts'
import { TRANSFER_TOPIC } from '../../src/explorer/transfers.ts'
import { openSpool } from '../../src/spool/sqlite/db.ts'
import { setMeta } from '../../src/spool/meta.ts'
import { migrate, spoolMigrations } from '../../src/spool/sqlite/migrations.ts'
import { streamPosition } from '../../src/spool/read.ts'
import { runPass } from '../../src/spool/streams.ts'
import { createStreams } from '../../src/streams.ts'
import { callFrame, writeBlock } from '../helpers/spoolBlocks.ts'
import { countTally, storedTally } from '../helpers/tally.ts'

// A spool written by the release before the spool owned its indexes and before the stream kit:
// the explorer's first migration still made two indexes on the spool's tables, the exchange's
// histories were keyed by row then block, and the streams had derived rows.
const OLD_EXPLORER_INDEXES = `
  CREATE INDEX explorer_blocks_active ON blocks(number) WHERE tx_count > 0;
  CREATE INDEX explorer_minis_hash ON minis(hash);`

async function oldSpool(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-upgrade-')), 'spool.db')
  const db = new Database(path, { create: true, strict: true })
  const writer = sqliteWriter(db)
  db.run('PRAGMA journal_mode = WAL')
  migrate(db, [spoolMigrations[0]!, { id: explorerMigrations[0]!.id, sql: explorerMigrations[0]!.sql + OLD_EXPLORER_INDEXES }, ...v2Migrations.slice(0, 2), ...clMigrations.slice(0, 2)])
  db.run('INSERT INTO blocks (number, hash, parent_hash, timestamp, gas_used, gas_limit, tx_count) VALUES (1, ?, ?, 1, 0, 1, 1)', [new Uint8Array(32).fill(1), new Uint8Array(32)])
  db.run(`INSERT INTO explorer_tokens (address, kind, transfers, minted, first_tx) VALUES (?, 20, 3, 1, 5)`, [new Uint8Array(20).fill(2)])
  await writer.transaction((tx) => setMeta(tx, 'cursor', '1'))
  // The streams derived the spool's one block (a pass over nothing moves the cursor to the head).
  for (const name of ['explorer', 'v2', 'cl', 'other']) await runPass(writer, { name, migrations: [], topics: [TRANSFER_TOPIC], tables: [], apply: async () => {} }, 1)
  db.close()
  return path
}

const indexes = (db: Database) =>
  db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
    .all()
    .map((row) => row.name)

test('a spool made by the previous release opens: its indexes move to the spool, the streams derive again', async () => {
  const path = await oldSpool()
  const db = openSpool(
    path,
    createStreams(parseConfig('', null)).flatMap((stream) => stream.migrations),
  )
  const names = indexes(db)
  expect(names).toContain('blocks_active')
  expect(names).toContain('minis_hash')
  expect(names.filter((name) => name === 'explorer_blocks_active' || name === 'explorer_minis_hash')).toEqual([])
  // The lookups still use them.
  const plan = (sql: string) =>
    db
      .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
      .all()
      .map((row) => row.detail)
      .join('; ')
  expect(plan('SELECT number FROM blocks WHERE tx_count > 0 ORDER BY number DESC LIMIT 8')).toContain('blocks_active')
  expect(plan("SELECT number FROM minis WHERE hash = x'00'")).toContain('minis_hash')
  // The streams' rows are gone and their cursors with them, so they derive everything again,
  // into histories of the kit's layout; a stream whose tables did not change keeps its cursor.
  expect(db.query('SELECT count(*) AS n FROM explorer_tokens').get()).toEqual({ n: 0 })
  for (const name of ['explorer', 'v2', 'cl']) expect([name, (await streamPosition(sqliteDb(db), name)).cursorBlock]).toEqual([name, null])
  expect((await streamPosition(sqliteDb(db), 'other')).cursorBlock).toBe(1)
  const columns = (table: string) =>
    db
      .query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((row) => row.name)
  for (const table of ['v2_pair_state_history', 'cl_ticks_history', 'explorer_nft_holdings_history']) expect(columns(table)[0]).toBe('block')
  // The spool's own rows are untouched.
  expect(db.query('SELECT number FROM blocks').all()).toEqual([{ number: 1 }])
  db.close()
})

test("a fresh spool has the same indexes on the spool's tables, none of them named for a service", () => {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-upgrade-')), 'spool.db')
  const db = openSpool(
    path,
    createStreams(parseConfig('', null)).flatMap((stream) => stream.migrations),
  )
  const onSpoolTables = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name NOT GLOB 'explorer_*' AND tbl_name NOT GLOB 'v2_*' AND tbl_name NOT GLOB 'cl_*' ORDER BY name",
    )
    .all()
    .map((row) => row.name)
  expect(onSpoolTables).toEqual([
    'blocks_active',
    'blocks_miner',
    'blocks_time',
    'contract_creations_tx',
    'internal_calls_tx',
    'logs_address',
    'logs_erc1155_batch_from',
    'logs_erc1155_batch_to',
    'logs_erc1155_single_from',
    'logs_erc1155_single_to',
    'logs_erc20_from',
    'logs_erc20_to',
    'logs_erc721_from',
    'logs_erc721_to',
    'logs_topic0',
    'minis_block',
    'minis_hash',
    'txs_created',
    'txs_from',
    'txs_to',
    'verified_contracts_block',
    'verified_contracts_code',
  ])
  db.close()
})

test('a spool made before the tally derives it from scratch; the other streams keep their place', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-upgrade-')), 'spool.db')
  const streams = createStreams(parseConfig('', null))
  // The release before the tally: every other migration of today, three blocks (a contract
  // created at the top, and two inside a call), every stream at the head, and a cursor under the
  // tally's name (as a build before its tables might have left) that must not be trusted.
  const before = openSpool(
    path,
    streams.flatMap((stream) => stream.migrations).filter((migration) => !tallyMigrations.includes(migration)),
  )
  const a: Hex = `0x${'aa'.repeat(20)}`
  const b: Hex = `0x${'bb'.repeat(20)}`
  const factory: Hex = `0x${'cc'.repeat(20)}`
  await writeBlock(before, 0)
  await writeBlock(before, 1, [
    { from: a, to: null, created: factory, trace: { type: 'CREATE', to: factory } },
    { from: a, to: b },
  ])
  await writeBlock(before, 2, [
    { from: b, to: factory, trace: { calls: [callFrame(factory, `0x${'d1'.repeat(20)}`, { type: 'CREATE2' }), callFrame(factory, `0x${'d2'.repeat(20)}`, { type: 'CREATE2' })] } },
  ])
  const writer = sqliteWriter(before)
  for (const name of ['explorer', 'v2', 'cl', 'tally']) await runPass(writer, { name, migrations: [], topics: [TRANSFER_TOPIC], tables: [], apply: async () => {} }, 2)
  expect(before.query("SELECT name FROM sqlite_master WHERE name = 'explorer_totals'").get()).toBeNull()
  before.close()

  const db = openSpool(
    path,
    streams.flatMap((stream) => stream.migrations),
  )
  expect(await streamPosition(sqliteDb(db), 'tally')).toMatchObject({ cursorBlock: null, lagBlocks: 3 })
  for (const name of ['explorer', 'v2', 'cl']) expect([name, (await streamPosition(sqliteDb(db), name)).cursorBlock]).toEqual([name, 2])
  const tally = streams.find((stream) => stream.name === 'tally')!
  const tallyWriter = sqliteWriter(db)
  while (!(await runPass(tallyWriter, tally, 2)).caughtUp);
  expect(storedTally(db)).toEqual(await countTally(db))
  expect(storedTally(db).totals).toEqual({ blocks: 3, transactions: 3, gasUsed: '63000', wallets: 2, accounts: 3, contracts: 3 })
  db.close()
})

test('cl events written before their kinds were checked by equalities are kept, with their indexes and the check', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-upgrade-')), 'spool.db')
  const before = new Database(path, { create: true, strict: true })
  migrate(before, [...spoolMigrations, ...clMigrations.slice(0, 3)])
  const insert = `INSERT INTO cl_events (tx_id, log_index, block, pool, kind, owner, sender, recipient, tick_lower, tick_upper, liquidity, amount0, amount1)
                  VALUES (?, 0, 1, ?, ?, ?, NULL, NULL, -60, 60, NULL, '5', '-7')`
  before.run(insert, [1, new Uint8Array(20).fill(3), 'collect', new Uint8Array(20).fill(4)])
  before.close()
  const db = openSpool(path, clMigrations)
  expect(db.query('SELECT tx_id, kind, amount0, amount1 FROM cl_events').all()).toEqual([{ tx_id: 1, kind: 'collect', amount0: '5', amount1: '-7' }])
  expect(indexes(db).filter((name) => name.startsWith('cl_events'))).toEqual(['cl_events_owner', 'cl_events_pool'])
  expect(() => db.run(insert, [2, new Uint8Array(20), 'swap', new Uint8Array(20)])).toThrow(/CHECK/)
  db.run(insert, [3, new Uint8Array(20), 'mint', new Uint8Array(20)])
  db.close()
})
