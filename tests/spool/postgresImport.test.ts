import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { FatalError } from '../../src/errors.ts'
import { openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { checkFence, createLeaseTable, FencedError, tryAcquire } from '../../src/spool/postgres/lease.ts'
import { COPIED_TABLES, copySpoolToPostgres, type CopyProgress } from '../../src/spool/postgres/importSqlite.ts'
import { recordGap } from '../../src/spool/store.ts'
import { postgresRows, sqliteRows } from '../helpers/engines.ts'
import { testPostgres } from '../helpers/postgres.ts'
import { callFrame, writeBlock } from '../helpers/spoolBlocks.ts'

// The copy of an embedded spool into PostgreSQL: every table the chain fills, row for row and
// value for value, in one transaction; refused into a schema that holds a spool, and by a
// writer whose lease was taken over.

const ALICE: Hex = '0x1111111111111111111111111111111111111111'
const BOB: Hex = '0x2222222222222222222222222222222222222222'
const TOKEN: Hex = '0x3333333333333333333333333333333333333333'
const MADE: Hex = '0x4444444444444444444444444444444444444444'
const TRANSFER: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const word = (address: Hex): Hex => `0x${address.slice(2).padStart(64, '0')}`

let dir: string
let spool: Database
let url: string
let db: SQL

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stack-import-'))
  spool = openSpool(join(dir, 'spool.db'))
  // A chain with something in every table: transfers with logs, a creation inside a call tree
  // (a contract creation, an internal call), a reverted transaction, empty blocks, a recorded
  // hole, a verified contract and a confirmed proxy.
  for (let number = 0; number < 120; number++) {
    if (number === 60) {
      await recordGap(sqliteWriter(spool), 60, 64)
      number = 64
      continue
    }
    const txs =
      number % 3 === 0
        ? []
        : [
            { from: ALICE, to: TOKEN, input: '0xa9059cbb' as Hex, logs: [{ address: TOKEN, topics: [TRANSFER, word(ALICE), word(BOB)], data: word('0x05') }] },
            { from: BOB, to: ALICE, reverted: number % 7 === 0 },
            { from: ALICE, to: TOKEN, trace: { calls: [callFrame(TOKEN, MADE, { type: 'CREATE2', value: '0x1' })] } },
          ]
    await writeBlock(spool, number, txs)
  }
  // Text with what COPY's format must escape: backslashes (a JSON's own escapes), tabs, line ends, and `\.` that could end the data.
  const details = JSON.stringify({ abi: [], sources: { 'Token.sol': { content: 'contract Token {\n\tuint x; // \\.\r\n}' } } })
  spool.run(
    "INSERT INTO verified_contracts (address, block_number, match, creation_match, runtime_match, origin, name, compiler_version, code_hash, verified_at, details) VALUES (?, 5, 'exact_match', 'exact_match', 'exact_match', 'etherscan', ?, 'v0.8.37+commit.f401782d', ?, 1700000000000, ?)",
    [Buffer.from(TOKEN.slice(2), 'hex'), 'To\tken\n\\.\r', new Uint8Array(32).fill(7), details],
  )
  spool.run('INSERT INTO verified_proxies (address, implementation, block_number, verified_at) VALUES (?, ?, NULL, 1700000000001)', [Buffer.from(MADE.slice(2), 'hex'), Buffer.from(TOKEN.slice(2), 'hex')])
  url = await (await testPostgres()).database('import')
  db = new SQL(url, { max: 4 })
})
afterAll(async () => {
  spool?.close()
  rmSync(dir, { recursive: true, force: true })
  await db?.close()
})

describe('the copy of an embedded spool into PostgreSQL', () => {
  test('every table the chain fills, row for row and value for value, with its progress said', async () => {
    const progress: CopyProgress[] = []
    // Small chunks, so that the larger tables take several.
    const copied = await copySpoolToPostgres(spool, db, 'copied', { onProgress: (step) => progress.push(step), chunkRows: 20 })
    for (const table of COPIED_TABLES) {
      const embedded = sqliteRows(spool, table)
      expect([table, copied[table]]).toEqual([table, embedded.length])
      if (table !== 'history_gaps') expect([table, embedded.length > 0]).toEqual([table, true])
      const copy = await postgresRows(db, 'copied', table, spool)
      expect([table, copy]).toEqual([table, embedded])
    }
    // Several batches of the logs, each said, the last at the total.
    const logs = progress.filter((step) => step.table === 'logs')
    expect(logs.length).toBeGreaterThan(2)
    expect(logs.at(-1)).toEqual({ table: 'logs', copied: copied.logs, total: copied.logs })
    // No stream's cursor: the derived streams derive again from the copied logs.
    expect(await db.unsafe('SELECT count(*)::int AS n FROM copied.stream_cursors')).toEqual([{ n: 0 }])
  })

  test('a schema that holds a spool is refused, and keeps what it held', async () => {
    const before = (await db.unsafe('SELECT count(*)::int AS n FROM copied.blocks')) as Array<{ n: number }>
    const refused = await copySpoolToPostgres(spool, db, 'copied').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(FatalError)
    expect((refused as Error).message).toBe(`the schema "copied" already holds a spool (${before[0]!.n} blocks): copy only into an empty schema, or name another`)
    expect(await db.unsafe('SELECT count(*)::int AS n FROM copied.blocks')).toEqual(before)
  })

  test('a copy refused part way leaves the schema empty, and the next copies whole', async () => {
    let batches = 0
    const stopped = await copySpoolToPostgres(spool, db, 'retried', {
      chunkRows: 20,
      onProgress: () => {
        if (++batches === 5) throw new Error('stopped part way')
      },
    }).catch((error: unknown) => error)
    expect((stopped as Error).message).toBe('stopped part way')
    for (const table of COPIED_TABLES) expect([table, await db.unsafe(`SELECT count(*)::int AS n FROM retried.${table}`)]).toEqual([table, [{ n: 0 }]])
    const copied = await copySpoolToPostgres(spool, db, 'retried')
    expect(copied.txs).toBeGreaterThan(100)
  })

  test('a writer whose lease was taken over copies nothing', async () => {
    await db.unsafe('CREATE SCHEMA fenced_copy')
    await createLeaseTable(db, 'fenced_copy')
    const stale = (await tryAcquire(db, 'fenced_copy', 'indexer', 'first', 0))!
    await tryAcquire(db, 'fenced_copy', 'indexer', 'second', 0)
    const refused = await copySpoolToPostgres(spool, db, 'fenced_copy', { fence: (tx) => checkFence(tx, 'fenced_copy', 'indexer', stale) }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(FencedError)
    expect(await db.unsafe("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'fenced_copy' AND tablename = 'blocks'")).toEqual([{ n: 0 }])
  })
})
