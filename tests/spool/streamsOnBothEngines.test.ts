import type { SQL } from 'bun'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseConfig } from '../../src/config/load.ts'
import { openReader, openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import type { SpoolWriter } from '../../src/spool/engine.ts'
import { tableNames } from '../../src/spool/kit/tables.ts'
import { migratePostgres } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { postgresStreamMigrations } from '../../src/spool/postgres/streamTables.ts'
import { postgresWriter } from '../../src/spool/postgres/writer.ts'
import { getCursor, rollbackTo } from '../../src/spool/store.ts'
import { boundStreamHistory, readStreamCursor, rollbackStream, runPass, type StreamDefinition } from '../../src/spool/streams.ts'
import { createStreams } from '../../src/streams.ts'
import { sqliteRows } from '../helpers/engines.ts'
import { stillSeededDevStack, type StillDevStack } from '../helpers/seededDevStack.ts'
import { frozenOnBothEngines } from '../helpers/spoolEngines.ts'
import { waitFor } from '../helpers/wait.ts'

// Every derived stream on both engines: the seeded dev chain's spool (its swaps, pools,
// positions, tokens, NFTs and fee movements) copied into a fresh embedded spool and into
// PostgreSQL, each stream derived on both through the one stream kit, in short passes that stop
// inside blocks, and every table of every stream compared row for row; then a reorganisation
// rolled back on both, derived again, and the history bounded, each compared again.

const SCHEMA = 'spool'
const streams: StreamDefinition[] = createStreams(parseConfig('', null))
const tables = [...new Set(streams.flatMap((stream) => stream.tables.flatMap(tableNames)))].sort()
/** Small passes: many of them, several ending inside a block. */
const PASS = { logs: 37, blocks: { txs: 23, blocks: 9 } }

let dev: StillDevStack
let fresh: Database
let pool: SQL
let head: number
/** The frozen copy of the live spool: the blocks as the node gave them. */
let frozenPath: string
const writers: Record<'sqlite' | 'postgres', SpoolWriter> = {} as never

/** A table's rows on PostgreSQL, as the embedded engine's test helper writes them. */
async function postgresTable(table: string): Promise<string[]> {
  return normal((await pool.unsafe(`SELECT * FROM "${SCHEMA}".${table}`)) as Array<Record<string, unknown>>)
}

/** Rows as sorted lines of JSON, integers as text and bytes as hex, so that two engines' rows compare whatever their order. */
function normal(rows: Array<Record<string, unknown>>): string[] {
  const same = (value: unknown) => (value instanceof Uint8Array ? `0x${Buffer.from(value).toString('hex')}` : typeof value === 'number' || typeof value === 'bigint' ? String(value) : value)
  return rows.map((row) => JSON.stringify(Object.entries(row).map(([key, value]) => [key, same(value)]))).sort()
}

/** Each stream derived to the head on one engine. */
async function deriveAll(writer: SpoolWriter): Promise<void> {
  for (const stream of streams) {
    for (let passes = 0; ; passes++) {
      expect(passes).toBeLessThan(100_000)
      const pass = await runPass(writer, stream, head, { logs: PASS.logs, blocks: PASS.blocks, historyFrom: head - 40 })
      if (pass.caughtUp) break
    }
  }
}

/** Every stream table equal on both engines; gives how many rows they hold. */
async function expectEqualTables(): Promise<number> {
  let rows = 0
  for (const table of tables) {
    const embedded = normal(sqliteRows(fresh, table))
    expect({ table, rows: await postgresTable(table) }).toEqual({ table, rows: embedded })
    rows += embedded.length
  }
  for (const stream of streams) {
    const [a, b] = [await readStreamCursor(writers.sqlite, stream.name), await readStreamCursor(writers.postgres, stream.name)]
    expect({ stream: stream.name, txId: b.txId, logIndex: b.logIndex, blockNumber: b.blockNumber }).toEqual({ stream: stream.name, txId: a.txId, logIndex: a.logIndex, blockNumber: a.blockNumber })
  }
  return rows
}

beforeAll(async () => {
  dev = await stillSeededDevStack()
  head = Number(await dev.node.call<string>('eth_blockNumber'))
  await waitFor(async () => (await dev.api<{ indexedBlock: number }>('/stats')).indexedBlock === head, 'the spool at the stopped head', 30_000)
  const frozen = await frozenOnBothEngines(join(dev.dir, 'data', 'spool.db'), 'streams', { prepare: false })
  frozen.file.close()
  frozenPath = frozen.frozen
  pool = frozen.pool
  // The embedded side: the same copy, its streams' rows and cursors taken away, derived again here.
  const path = join(dev.dir, 'fresh-streams.db')
  copyFileSync(frozen.frozen, path)
  fresh = openSpool(path, streams.flatMap((stream) => stream.migrations))
  for (const table of tables) fresh.run(`DELETE FROM ${table}`)
  fresh.run('DELETE FROM stream_cursors')
  fresh.run("DELETE FROM meta WHERE key = 'history_from' OR key LIKE 'history_folded:%'")
  writers.sqlite = sqliteWriter(fresh)
  await migratePostgres(pool, SCHEMA, [...postgresSpoolMigrations, ...postgresStreamMigrations(streams)])
  writers.postgres = postgresWriter(pool, { schema: SCHEMA })
  expect(await getCursor(writers.postgres)).toBe(head)
  expect(await getCursor(writers.sqlite)).toBe(head)
}, 180_000)

afterAll(async () => {
  await pool?.close()
  fresh?.close()
})

describe('the derived streams on both engines', () => {
  test('every stream, derived in short passes, writes the same rows on both', async () => {
    await Promise.all([deriveAll(writers.sqlite), deriveAll(writers.postgres)])
    expect(await expectEqualTables()).toBeGreaterThan(500)
    // Each stream has rows of its own to compare: the seeded chain has traffic for all of them.
    for (const stream of streams) expect({ stream: stream.name, rows: Number(fresh.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${stream.tables[0]!.table}`).get()!.n) > 0 }).toEqual({ stream: stream.name, rows: true })
  }, 300_000)

  test('a reorganisation rolls every stream back alike, and deriving again gives the rows of a run that never saw it', async () => {
    const rowsBefore = await expectEqualTables()
    const before = Object.fromEntries(await Promise.all(tables.filter((table) => !table.endsWith('_history')).map(async (table) => [table, await postgresTable(table)] as const)))
    const ancestor = head - 25
    for (const writer of Object.values(writers)) {
      await rollbackTo(writer, ancestor, async (tx) => {
        for (const stream of streams) await rollbackStream(tx, stream, ancestor)
      })
    }
    expect(await expectEqualTables()).toBeLessThan(rowsBefore)
    for (const writer of Object.values(writers)) expect(await getCursor(writer)).toBe(ancestor)
    // The blocks come back as the node had them: the spool's rows of the frozen copy, written again.
    for (const writer of Object.values(writers)) await restoreBlocks(writer, ancestor)
    await Promise.all([deriveAll(writers.sqlite), deriveAll(writers.postgres)])
    expect(await expectEqualTables()).toBeGreaterThanOrEqual(rowsBefore)
    for (const [table, rows] of Object.entries(before)) expect({ table, rows: await postgresTable(table) }).toEqual({ table, rows })
  }, 300_000)

  test('bounding the history drops and folds the same rows on both', async () => {
    const bound = { below: head - 10, resetBlock: head - 60 }
    const history = () => Number(fresh.query<{ n: number }, []>(`SELECT ${tables.filter((table) => table.endsWith('_history')).map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`).get()!.n)
    const historyBefore = history()
    for (const writer of Object.values(writers)) {
      for (const stream of streams) while (await boundStreamHistory(writer, stream, bound, 40)) {}
    }
    await expectEqualTables()
    expect(history()).toBeLessThan(historyBefore)
  }, 300_000)
})

/** The frozen copy's blocks above `ancestor`, put back on `engine` with the cursor at the head (the node's blocks, fetched again). */
async function restoreBlocks(writer: SpoolWriter, ancestor: number): Promise<void> {
  const frozen = openReader(frozenPath)
  try {
    await writer.transaction(async (tx) => {
      for (const table of ['blocks', 'minis', 'txs', 'logs', 'traces', 'internal_calls', 'contract_creations']) {
        const where = table === 'blocks' ? 'number > ?' : table === 'minis' ? 'block_number > ?' : table === 'txs' ? 'id >= ?' : 'tx_id >= ?'
        const bound = table === 'blocks' || table === 'minis' ? ancestor : (ancestor + 1) * 2 ** 20
        const rows = frozen.query<Record<string, unknown>, [number]>(`SELECT * FROM ${table} WHERE ${where}`).all(bound)
        if (rows.length === 0) continue
        const columns = Object.keys(rows[0]!)
        tx.queueRows(`INSERT INTO ${table} (${columns.join(', ')})`, rows.map((row) => columns.map((column) => row[column] as never)))
      }
      await tx.run("UPDATE meta SET value = ? WHERE key = 'cursor'", String(head))
    })
  } finally {
    frozen.close()
  }
  expect(await getCursor(writer)).toBe(head)
}
