import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { SQL } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import type { SpoolWriter } from '../../src/spool/engine.ts'
import type { BlockBundle } from '../../src/spool/fetchBlocks.ts'
import { connectPostgres } from '../../src/spool/postgres/connect.ts'
import { checkFence, createLeaseTable, FencedError, tryAcquire } from '../../src/spool/postgres/lease.ts'
import { migratePostgres } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { postgresWriter } from '../../src/spool/postgres/writer.ts'
import { getCursor, recordGap, rollbackTo, writeBatch } from '../../src/spool/store.ts'
import { postgresRows, sqliteRows } from '../helpers/engines.ts'
import { testPostgres } from '../helpers/postgres.ts'
import { callFrame, syntheticBundle } from '../helpers/spoolBlocks.ts'

// The spool's write path on both engines: the same blocks written, taken back by a
// reorganisation and past a recorded hole give the same rows, value for value (the one rule of
// store.ts, written by each engine's own inserts); and on PostgreSQL a fenced writer writes none.

const ALICE: Hex = '0x1111111111111111111111111111111111111111'
const BOB: Hex = '0x2222222222222222222222222222222222222222'
const TOKEN: Hex = '0x3333333333333333333333333333333333333333'
const TRANSFER: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const word = (address: Hex): Hex => `0x${address.slice(2).padStart(64, '0')}`
/** The tables a run of blocks writes, and meta's cursor (its write time aside). */
const TABLES = ['blocks', 'minis', 'txs', 'logs', 'traces', 'internal_calls', 'contract_creations', 'history_gaps']
const SCHEMA = 'store_test'

/** Blocks `from` to `to` with transfers, a reverted call and a creation inside a call tree; `salt` another fork of them. */
const blocks = (from: number, to: number, salt = 0): BlockBundle[] =>
  Array.from({ length: to - from + 1 }, (_, offset) => {
    const number = from + offset
    const made: Hex = `0x${(0xa000 + number * 16 + salt).toString(16).padStart(40, '0')}`
    return syntheticBundle(
      number,
      number % 4 === 0
        ? []
        : [
            { from: ALICE, to: TOKEN, input: '0xa9059cbb', logs: [{ address: TOKEN, topics: [TRANSFER, word(ALICE), word(BOB)], data: word(`0x${(number + salt).toString(16)}`) }] },
            { from: BOB, to: ALICE, reverted: number % 5 === 0 },
            { from: ALICE, to: TOKEN, trace: { calls: [callFrame(TOKEN, made, { type: 'CREATE', value: '0x2' }), callFrame(TOKEN, BOB, { value: '0x3' })] } },
          ],
      salt,
    )
  })

let dir: string
let sqlite: Database
let db: SQL
/** Each engine's writer, as the follower has it. */
const writers = {} as Record<'sqlite' | 'postgres', SpoolWriter>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stack-store-'))
  sqlite = openSpool(join(dir, 'spool.db'))
  db = connectPostgres(await (await testPostgres()).database('store'), { schema: SCHEMA, max: 4 })
  await migratePostgres(db, SCHEMA, postgresSpoolMigrations)
  writers.sqlite = sqliteWriter(sqlite)
  writers.postgres = postgresWriter(db, { schema: SCHEMA })
})
afterAll(async () => {
  sqlite?.close()
  rmSync(dir, { recursive: true, force: true })
  await db?.close()
})

/** A hole's time of recording is each engine's own moment. */
const timeless = (rows: Array<Record<string, unknown>>) => rows.map(({ recorded_at: _, ...row }) => row)

async function expectSameRows() {
  for (const table of TABLES) expect([table, timeless(await postgresRows(db, SCHEMA, table, sqlite))]).toEqual([table, timeless(sqliteRows(sqlite, table))])
  const cursor = (await db.unsafe(`SELECT value FROM ${SCHEMA}.meta WHERE key = 'cursor'`)) as Array<{ value: string }>
  expect(Number(cursor[0]!.value)).toBe(await getCursor(writers.sqlite))
}

describe("the spool's write path on both engines", () => {
  test('the same blocks give the same rows, written twenty blocks a transaction', async () => {
    const written = blocks(0, 59)
    let sqliteLogs = 0
    let postgresLogs = 0
    for (let at = 0; at < written.length; at += 20) {
      sqliteLogs += await writeBatch(writers.sqlite, written.slice(at, at + 20))
      postgresLogs += await writeBatch(writers.postgres, written.slice(at, at + 20))
    }
    expect(postgresLogs).toBe(sqliteLogs)
    expect(sqliteLogs).toBeGreaterThan(40)
    await expectSameRows()
    expect(sqliteRows(sqlite, 'contract_creations').length).toBeGreaterThan(40)
    expect(sqliteRows(sqlite, 'internal_calls').length).toBeGreaterThan(40)
  })

  test('a reorganisation taken back to the same ancestor, and the other fork written, leave the same rows', async () => {
    await rollbackTo(writers.sqlite, 40)
    await rollbackTo(writers.postgres, 40)
    await expectSameRows()
    expect(await getCursor(writers.sqlite)).toBe(40)
    const fork = blocks(41, 70, 1)
    await writeBatch(writers.sqlite, fork)
    await writeBatch(writers.postgres, fork)
    await expectSameRows()
  })

  test('a recorded hole, and one that starts where it ended, are the same on both', async () => {
    for (const [from, to] of [
      [71, 75],
      [76, 80],
    ] as const) {
      await recordGap(writers.sqlite, from, to)
      await recordGap(writers.postgres, from, to)
    }
    expect(sqliteRows(sqlite, 'history_gaps')).toEqual([{ from_block: '71', to_block: '80', recorded_at: expect.any(String) }])
    const gaps = await postgresRows(db, SCHEMA, 'history_gaps', sqlite)
    expect(gaps).toEqual([{ from_block: '71', to_block: '80', recorded_at: expect.any(String) }])
    expect(await getCursor(writers.sqlite)).toBe(80)
    // Taken back into the hole: it ends at the ancestor on both.
    await rollbackTo(writers.sqlite, 73)
    await rollbackTo(writers.postgres, 73)
    await expectSameRows()
  })

  test('a writer fenced off by a takeover writes nothing of its batch', async () => {
    await createLeaseTable(db, SCHEMA)
    const stale = (await tryAcquire(db, SCHEMA, 'indexer', 'first', 0))!
    await tryAcquire(db, SCHEMA, 'indexer', 'second', 0)
    const before = await postgresRows(db, SCHEMA, 'blocks', sqlite)
    // The writer's transaction passes its fence before it writes a row of the batch.
    const fenced = postgresWriter(db, { schema: SCHEMA, fence: (tx) => checkFence(tx, SCHEMA, 'indexer', stale) })
    const refused = await writeBatch(fenced, blocks(74, 90, 2)).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(FencedError)
    expect(await postgresRows(db, SCHEMA, 'blocks', sqlite)).toEqual(before)
  })
})
