import { Database as SqliteDatabase } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { blob } from '../../src/eth/bytes.ts'
import { openReader, openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { engineSpool, type EngineSpool } from '../helpers/spoolEngines.ts'
import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import type { SpoolDb } from '../../src/spool/engine.ts'
import type { BlockBundle, RawLog } from '../../src/spool/fetchBlocks.ts'
import { backfillInternalCalls } from '../../src/spool/internalCalls.ts'
import { rollbackTo, writeBatch } from '../../src/spool/store.ts'
import type { CallFrame } from '../../src/spool/traces.ts'
import { addressTxIds, blockByTime, internalCallTxIds, minedBlocks } from '../../src/spool/read/lists.ts'
import { filterHasIndex, findLogs, logsInRangeExceed, topicOfAddress, transferLogs } from '../../src/spool/read/logs.ts'
import { txsInFull } from '../../src/spool/read/transactions.ts'

// An address's lists over a spool filled through its own write path: each page equals the same
// page cut from every row in a plain loop, and each query walks an index (its plan says so),
// never a scan of the table. The same chain written to PostgreSQL gives the same answers.

const X: Hex = `0x${'aa'.repeat(20)}`
const Y: Hex = `0x${'bb'.repeat(20)}`
const TOKEN: Hex = `0x${'cc'.repeat(20)}`
const MINER: Hex = `0x${'ee'.repeat(20)}`
const TRANSFER: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const SINGLE: Hex = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
const q = (value: number | bigint): Hex => `0x${value.toString(16)}`
const word = (value: number | bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`
const topic = (address: Hex): Hex => `0x${address.slice(2).padStart(64, '0')}`
const BLOCKS = 120

/** Transaction `index` of block `number`: X sends, X receives, X creates, or neither, by turns; each with a log. */
function txOf(number: number, index: number) {
  const turn = (number * 3 + index) % 4
  const from = turn === 1 ? Y : X
  const to = turn === 2 ? null : turn === 1 ? X : turn === 3 ? Y : TOKEN
  return { from: turn === 3 ? Y : from, to: turn === 3 ? TOKEN : to, created: turn === 2 ? (`0x${(number * 8 + index).toString(16).padStart(40, '0')}` as Hex) : null }
}

function bundle(number: number): BlockBundle {
  const txs = [0, 1, 2].map((index) => txOf(number, index))
  const txHash = (index: number): Hex => word(number * 16 + index + 1)
  const logs = (index: number): RawLog[] => {
    const base = { transactionIndex: q(index), transactionHash: txHash(index), logIndex: q(index * 2) }
    // ERC-20 from X to Y in odd blocks, the other way in even ones; an ERC-721 item and an ERC-1155 single now and then.
    const list: RawLog[] = [{ ...base, address: TOKEN, topics: [TRANSFER, topic(number % 2 ? X : Y), topic(number % 2 ? Y : X)], data: word(number * 10 + index) }]
    if (index === 1 && number % 5 === 0) list.push({ ...base, logIndex: q(index * 2 + 1), address: TOKEN, topics: [TRANSFER, topic(Y), topic(X), word(number)], data: '0x' })
    if (index === 2 && number % 7 === 0)
      list.push({ ...base, logIndex: q(index * 2 + 1), address: TOKEN, topics: [SINGLE, topic(Y), topic(X), topic(Y)], data: `${word(number)}${word(3).slice(2)}` as Hex })
    return list
  }
  const frame = (from: Hex, to: Hex | null, value: number, calls: CallFrame[] = []): CallFrame => ({
    type: 'CALL',
    from,
    to,
    value: q(value),
    gas: '0x5208',
    gasUsed: '0x0',
    input: '0x',
    output: null,
    error: null,
    calls,
  })
  return {
    block: {
      number: q(number),
      hash: word(0xb000 + number),
      parentHash: word(number === 0 ? 0 : 0xb000 + number - 1),
      timestamp: q(1000 + number * 2),
      miner: number % 3 === 0 ? MINER : Y,
      gasUsed: q(63_000),
      gasLimit: q(30_000_000),
      baseFeePerGas: q(7),
      size: q(500),
      transactions: txs.map((tx, index) => ({
        hash: txHash(index),
        from: tx.from,
        to: tx.to,
        value: q(1),
        nonce: q(index),
        type: '0x2',
        gas: q(100_000),
        maxFeePerGas: q(9),
        maxPriorityFeePerGas: q(1),
        input: '0x',
        transactionIndex: q(index),
      })),
    },
    receipts: txs.map((tx, index) => ({
      transactionHash: txHash(index),
      transactionIndex: q(index),
      status: '0x1',
      gasUsed: q(21_000),
      effectiveGasPrice: q(8),
      contractAddress: tx.created,
      logs: logs(index),
    })),
    // In every fourth block the last transaction's call pays X an internal 5 wei; a 0-value call never counts.
    traces: txs.map((tx, index) => frame(tx.from, tx.to, 1, index === 2 && number % 4 === 0 ? [frame(TOKEN, X, 5), frame(TOKEN, Y, 0)] : [])),
  }
}

let writer: Database
let db: Database
let pg: EngineSpool
beforeAll(async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-spool-lists-')), 'spool.db')
  writer = openSpool(path)
  db = openReader(path)
  await writeBatch(sqliteWriter(writer), Array.from({ length: BLOCKS }, (_, number) => bundle(number)))
  pg = await engineSpool('postgres', 'lists')
  await pg.write(Array.from({ length: BLOCKS }, (_, number) => bundle(number)))
})
afterAll(() => pg.close())

/** What `read` answers over the spool on both engines: the same on each, and then that answer. */
async function onBoth<T>(read: (db: SpoolDb) => Promise<T>): Promise<T> {
  const [embedded, postgres] = await Promise.all([read(sqliteDb(db)), read(pg.db)])
  expect(postgres).toEqual(embedded)
  return embedded
}

/** Every SQL statement `run` makes, with its query plan's lines. */
async function plans(run: (db: Database) => Promise<unknown>): Promise<string[]> {
  const seen: string[] = []
  const spy = new Proxy(db, {
    get(target, property) {
      if (property !== 'query') return Reflect.get(target, property).bind?.(target) ?? Reflect.get(target, property)
      return (sql: string) => {
        const statement = target.query(sql)
        const explain = (params: unknown[]) => {
          const plan = target.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          seen.push(...plan.all(...(params as [])).map((row: any) => row.detail as string))
          plan.finalize()
        }
        return new Proxy(statement, {
          get(inner, name) {
            const value = Reflect.get(inner, name)
            if (name === 'all' || name === 'get' || name === 'values') return (...params: unknown[]) => (explain(params), value.apply(inner, params))
            return typeof value === 'function' ? value.bind(inner) : value
          },
        })
      }
    },
  })
  await run(spy as Database)
  return seen
}

const isIndexWalk = (lines: string[]) => lines.every((line) => !/^SCAN (txs|logs|blocks|internal_calls)\b(?! USING)/.test(line))

describe('an address’s transactions', () => {
  const all = () => {
    const ids: number[] = []
    for (let number = 0; number < BLOCKS; number++) {
      ;[0, 1, 2].forEach((index) => {
        const tx = txOf(number, index)
        if (tx.from === X || tx.to === X || tx.created === X) ids.push(number * 2 ** 20 + index)
      })
    }
    return ids
  }

  test('each page is the loop’s page, in both orders and within a block range', async () => {
    const x = blob(X)
    const everything = all()
    expect(everything.length).toBeGreaterThan(100)
    for (const [limit, offset] of [
      [10, 0],
      [10, 30],
      [7, 200],
      [50, everything.length - 5],
    ] as const) {
      expect(await onBoth((reader) => addressTxIds(reader, x, { first: 0, last: 1e8 }, { limit, offset, newestFirst: false }))).toEqual(everything.slice(offset, offset + limit))
      expect(await onBoth((reader) => addressTxIds(reader, x, { first: 0, last: 1e8 }, { limit, offset, newestFirst: true }))).toEqual([...everything].reverse().slice(offset, offset + limit))
    }
    const ranged = everything.filter((id) => id >= 30 * 2 ** 20 && id < 41 * 2 ** 20)
    expect(await onBoth((reader) => addressTxIds(reader, x, { first: 30, last: 40 }, { limit: 100, offset: 0, newestFirst: false }))).toEqual(ranged)
  })

  test('walk the from, to and created indexes, never the table', async () => {
    const lines = await plans(async (spy) => await addressTxIds(sqliteDb(spy), blob(X), { first: 0, last: 1e8 }, { limit: 100, offset: 9900, newestFirst: true }))
    expect(lines.join('\n')).toContain('txs_from')
    expect(lines.join('\n')).toContain('txs_to')
    expect(lines.join('\n')).toContain('txs_created')
    expect(isIndexWalk(lines)).toBe(true)
    // Merged as they come, never gathered and sorted.
    expect(lines).toContain('MERGE (UNION)')
    expect(lines.join('\n')).not.toContain('TEMP B-TREE')
  })

  test('on PostgreSQL too, a page reads the entries it can need, not every transaction of the address', async () => {
    type PlanNode = { 'Node Type': string; 'Actual Rows': number; Plans?: PlanNode[] }
    let plan: PlanNode | null = null
    const explaining: SpoolDb = {
      ...pg.db,
      all: async <T>(sql: string, ...params: Parameters<SpoolDb['all']>[1][]) => {
        const [row] = await pg.db.all<Record<string, unknown>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, ...params)
        const json = Object.values(row!)[0]
        plan = (typeof json === 'string' ? JSON.parse(json) : json)[0].Plan
        return pg.db.all<T>(sql, ...params)
      },
    }
    const limit = 10
    const ids = await addressTxIds(explaining, blob(X), { first: 0, last: 1e8 }, { limit, offset: 0, newestFirst: true })
    expect(ids).toEqual([...all()].reverse().slice(0, limit))
    const scanned = (node: PlanNode): number => (node['Node Type'].endsWith('Scan') ? node['Actual Rows'] : 0) + (node.Plans ?? []).reduce((sum, child) => sum + scanned(child), 0)
    // Each of the three sides stops at the page's end; the address has far more.
    expect(all().length).toBeGreaterThan(9 * limit)
    expect(scanned(plan!)).toBeLessThanOrEqual(3 * limit)
  })
})

describe('a spool made before the lists', () => {
  test('the migration makes the indexes and fills the internal calls and the cumulative gas from what the spool holds', () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'stack-spool-lists-old-')), 'spool.db')
    writer.run(`VACUUM INTO '${copy}'`)
    const rows = (db: Database) => ({
      calls: db.query('SELECT hex(address) AS a, tx_id FROM internal_calls ORDER BY address, tx_id').all(),
      gas: db.query('SELECT id, cumulative_gas_used AS g FROM txs ORDER BY id').all(),
    })
    const expected = rows(writer)
    expect(expected.calls.length).toBeGreaterThan(BLOCKS / 4)
    const old = new SqliteDatabase(copy, { strict: true })
    const made = old.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql LIKE '%logs_erc%' OR name IN ('txs_created', 'blocks_time', 'blocks_miner')").all()
    for (const { name } of made) old.run(`DROP INDEX ${name}`)
    old.run('DROP TABLE internal_calls')
    old.run('ALTER TABLE txs DROP COLUMN cumulative_gas_used')
    old.run("DELETE FROM migrations WHERE id = 'spool/006-address-lists'")
    old.close()
    const migrated = openSpool(copy)
    expect(rows(migrated)).toEqual(expected)
    expect(migrated.query("SELECT count(*) AS n FROM sqlite_master WHERE name GLOB 'logs_erc*'").get()).toEqual({ n: 8 })
    migrated.close()
  })
})

describe('cumulative gas', () => {
  test('each transaction’s block gas up to it: kept by the write path, summed where a row has none', async () => {
    const ids = [5 * 2 ** 20, 5 * 2 ** 20 + 1, 5 * 2 ** 20 + 2]
    expect((await txsInFull(sqliteDb(db), ids)).map((tx) => tx.cumulativeGasUsed)).toEqual([21_000, 42_000, 63_000])
    writer.run('UPDATE txs SET cumulative_gas_used = NULL WHERE block_number = 5')
    expect((await txsInFull(sqliteDb(db), ids)).map((tx) => tx.cumulativeGasUsed)).toEqual([21_000, 42_000, 63_000])
  })
})

describe('token transfer logs', () => {
  test('a holder’s ERC-20, ERC-721 and ERC-1155 transfers, each from its partial indexes', async () => {
    const range = { first: 0, last: 1e8 }
    const erc20 = await onBoth((reader) => transferLogs(reader, 20, { holder: blob(X), token: null, range, limit: 1000, newestFirst: false }))
    expect(erc20.length).toBe(BLOCKS * 3)
    expect(erc20.every((log) => log.topic3 === null)).toBe(true)
    const nft = await onBoth((reader) => transferLogs(reader, 721, { holder: blob(X), token: blob(TOKEN), range, limit: 1000, newestFirst: true }))
    expect(nft.map((log) => log.blockNumber)).toEqual(Array.from({ length: BLOCKS / 5 }, (_, index) => BLOCKS - 5 - index * 5))
    const multi = await onBoth((reader) => transferLogs(reader, 1155, { holder: blob(X), token: null, range, limit: 3, newestFirst: false }))
    expect(multi.map((log) => log.blockNumber)).toEqual([0, 7, 14])
    for (const [standard, names] of [
      [20, ['logs_erc20_from', 'logs_erc20_to']],
      [721, ['logs_erc721_from', 'logs_erc721_to']],
      [1155, ['logs_erc1155_single_from', 'logs_erc1155_batch_to']],
    ] as const) {
      const lines = await plans(async (spy) => await transferLogs(sqliteDb(spy), standard, { holder: blob(X), token: null, range, limit: 10, newestFirst: true }))
      for (const name of names) expect(lines.join('\n')).toContain(name)
      expect(isIndexWalk(lines)).toBe(true)
    }
    const byToken = await plans(async (spy) => await transferLogs(sqliteDb(spy), 20, { holder: null, token: blob(TOKEN), range, limit: 10, newestFirst: false }))
    expect(byToken.join('\n')).toContain('logs_address')
    expect(isIndexWalk(byToken)).toBe(true)
  })

  test('getLogs: by address or topic0 from their indexes; by a later topic alone, the logs’ own key over the range', async () => {
    const range = { first: 0, last: 1e8 }
    const none = [null, null, null, null]
    expect((await onBoth((reader) => findLogs(reader, { range, address: blob(TOKEN), topics: none, joins: [] }, 5, 0))).map((log) => [log.blockNumber, log.logIndex])).toEqual([
      [0, 0],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
    ])
    expect((await plans(async (spy) => await findLogs(sqliteDb(spy), { range, address: blob(TOKEN), topics: none, joins: [] }, 5, 0))).join('\n')).toContain('logs_address')
    expect((await plans(async (spy) => await findLogs(sqliteDb(spy), { range, address: null, topics: [blob(SINGLE), null, null, null], joins: [] }, 5, 0))).join('\n')).toContain('logs_topic0')
    const byKey = await plans(async (spy) => await findLogs(sqliteDb(spy), { range: { first: 50, last: 60 }, address: null, topics: [null, topicOfAddress(blob(X)), null, null], joins: [] }, 5, 0))
    expect(byKey.join('\n')).toMatch(/SEARCH logs USING (PRIMARY KEY|INDEX sqlite_autoindex_logs_1) \(tx_id>\? AND tx_id<\?\)/)
    // What no index serves is bounded by counting the range's logs first, cut at the budget.
    expect(filterHasIndex({ range, address: blob(TOKEN), topics: none, joins: [] })).toBe(true)
    expect(filterHasIndex({ range, address: null, topics: [blob(TRANSFER), blob(TRANSFER), null, null], joins: ['and'] })).toBe(true)
    expect(filterHasIndex({ range, address: null, topics: [blob(TRANSFER), blob(TRANSFER), null, null], joins: ['or'] })).toBe(false)
    expect(filterHasIndex({ range, address: null, topics: [null, blob(TRANSFER), null, null], joins: [] })).toBe(false)
    const logsOfBlocks = (first: number, last: number) => {
      let count = 0
      for (let number = first; number <= last; number++) count += 3 + (number % 5 === 0 ? 1 : 0) + (number % 7 === 0 ? 1 : 0)
      return count
    }
    expect(await onBoth((reader) => logsInRangeExceed(reader, { first: 0, last: 9 }, logsOfBlocks(0, 9)))).toBe(false)
    expect(await onBoth((reader) => logsInRangeExceed(reader, { first: 0, last: 9 }, logsOfBlocks(0, 9) - 1))).toBe(true)
    // and binds before or: (topic0 = Transfer and topic1 = X) or topic3 = Y holds X's ERC-20 sends and the ERC-1155 singles.
    const mixed = await onBoth((reader) => findLogs(reader, { range, address: null, topics: [blob(TRANSFER), topicOfAddress(blob(X)), null, topicOfAddress(blob(Y))], joins: ['and', 'or'] }, 1000, 0))
    expect(mixed.length).toBe((BLOCKS / 2) * 3 + Math.ceil(BLOCKS / 7))
  })
})

describe('internal calls, mined blocks, a block by time', () => {
  test('internal calls by address, from the spool’s own index of them, and rolled back with the blocks', async () => {
    const range = { first: 0, last: 1e8 }
    const paid = Array.from({ length: BLOCKS / 4 }, (_, index) => index * 4 * 2 ** 20 + 2)
    expect(await onBoth((reader) => internalCallTxIds(reader, blob(X), range, 1000, false))).toEqual(paid)
    expect(await onBoth((reader) => internalCallTxIds(reader, blob(Y), range, 1000, false))).toEqual([])
    expect(await onBoth((reader) => internalCallTxIds(reader, null, range, 3, true))).toEqual(paid.slice(-3).reverse())
    expect((await plans(async (spy) => await internalCallTxIds(sqliteDb(spy), blob(X), range, 10, true))).join('\n')).toContain('internal_calls')
    await rollbackTo(sqliteWriter(writer), BLOCKS - 9)
    expect(await internalCallTxIds(sqliteDb(db), blob(X), range, 1000, false)).toEqual(paid.filter((id) => id < (BLOCKS - 8) * 2 ** 20))
    await writeBatch(sqliteWriter(writer), Array.from({ length: 8 }, (_, index) => bundle(BLOCKS - 8 + index)))
    expect(await internalCallTxIds(sqliteDb(db), blob(X), range, 1000, false)).toEqual(paid)
  })

  test('a spool that held traces before the index is filled from its stored call trees', async () => {
    const range = { first: 0, last: 1e8 }
    const before = await internalCallTxIds(sqliteDb(db), null, range, 1000, false)
    writer.run('DELETE FROM internal_calls')
    expect(await internalCallTxIds(sqliteDb(db), blob(X), range, 1000, false)).toEqual([])
    writer.transaction(() => backfillInternalCalls(writer))()
    expect(await internalCallTxIds(sqliteDb(db), null, range, 1000, false)).toEqual(before)
    expect(await internalCallTxIds(sqliteDb(db), blob(X), range, 1000, false)).toEqual(before)
    expect(await internalCallTxIds(sqliteDb(db), blob(TOKEN), range, 1000, false)).toEqual(before)
  })

  test('the blocks an address mined and the block closest to a time, each from its index', async () => {
    const mined = await onBoth((reader) => minedBlocks(reader, blob(MINER), { first: 0, last: 1e8 }, { limit: 3, offset: 1, newestFirst: false }))
    expect(mined.map((block) => block.number)).toEqual([3, 6, 9])
    expect((await plans(async (spy) => await minedBlocks(sqliteDb(spy), blob(MINER), { first: 0, last: 1e8 }, { limit: 3, offset: 0, newestFirst: true }))).join('\n')).toContain('blocks_miner')
    expect(await onBoth((reader) => blockByTime(reader, 1001, 'before'))).toBe(0)
    expect(await onBoth((reader) => blockByTime(reader, 1001, 'after'))).toBe(1)
    expect(await onBoth((reader) => blockByTime(reader, 999, 'before'))).toBeNull()
    expect(await onBoth((reader) => blockByTime(reader, 1000 + BLOCKS * 2, 'after'))).toBeNull()
    expect((await plans(async (spy) => await blockByTime(sqliteDb(spy), 1001, 'before'))).join('\n')).toContain('blocks_time')
  })
})
