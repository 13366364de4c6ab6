import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { writeBlock, type SyntheticTx } from '../helpers/spoolBlocks.ts'
import { openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { setMeta } from '../../src/spool/meta.ts'
import { Entities } from '../../src/spool/kit/entities.ts'
import { createdTable, versionedHistorySql, versionedTable } from '../../src/spool/kit/tables.ts'
import { blockHeaders, streamPosition, txPartiesOfBlocks } from '../../src/spool/read.ts'
import { rollbackTo } from '../../src/spool/store.ts'
import { txId } from '../../src/spool/codec.ts'
import { boundStreamHistory, readStreamCursor, rollbackStream, runPass, type BlockStream, type LogStream, type PassResult, type SpoolLog } from '../../src/spool/streams.ts'

// The stream kit's second kind of stream, driven by blocks rather than logs, and the pruning of
// versioned history: a toy stream that counts, per sender, the transactions it sent and the
// blocks it sent in, and keeps the first block each sender appeared in.

const senders = versionedTable({ table: 'toy_senders', keys: ['address'], columns: ['txs', 'blocks'] })
const blocksSeen = versionedTable({ table: 'toy_blocks', keys: ['id'], columns: ['count'] })
const firstSeen = createdTable('toy_first_seen', 'block')

function toyStream(passes: Array<[number, number]> = [], fail = () => false): BlockStream {
  return {
    kind: 'blocks',
    name: 'toy',
    migrations: [
      {
        id: 'test/toy',
        sql: `CREATE TABLE toy_senders (address BLOB PRIMARY KEY, txs INTEGER NOT NULL, blocks INTEGER NOT NULL) WITHOUT ROWID;
              CREATE TABLE toy_blocks (id INTEGER PRIMARY KEY, count INTEGER NOT NULL);
              CREATE TABLE toy_first_seen (address BLOB PRIMARY KEY, block INTEGER NOT NULL);
              ${versionedHistorySql(senders)} ${versionedHistorySql(blocksSeen)}`,
      },
    ],
    tables: [senders, blocksSeen, firstSeen],
    apply: async (db, fromBlock, toBlock) => {
      passes.push([fromBlock, toBlock])
      const rows = new Entities<{ txs: number; blocks: number }>(
        db,
        senders,
        (row) => [row.txs, row.blocks],
        (row) => ({ txs: row.txs as number, blocks: row.blocks as number }),
      )
      const count = new Entities<{ count: number }>(
        db,
        blocksSeen,
        (row) => [row.count],
        (row) => ({ count: row.count as number }),
      )
      const txs = await txPartiesOfBlocks(db, fromBlock, toBlock)
      for (const { number } of await blockHeaders(db, fromBlock, toBlock)) {
        ;(await count.edit('0', [0], number, () => ({ count: 0 })))!.count++
        const seen = new Set<string>()
        for (const tx of txs.filter((row) => Math.floor(row.id / 2 ** 20) === number)) {
          const id = Buffer.from(tx.from).toString('hex')
          const row = (await rows.edit(id, [tx.from], number, () => ({ txs: 0, blocks: 0 })))!
          row.txs++
          if (!seen.has(id)) row.blocks++
          seen.add(id)
          await db.run('INSERT INTO toy_first_seen (address, block) VALUES (?, ?) ON CONFLICT DO NOTHING', tx.from, number)
        }
        if (fail()) throw new Error('the toy stream failed')
      }
      await rows.flush()
      await count.flush()
    },
  }
}

const A: Hex = `0x${'aa'.repeat(20)}`
const B: Hex = `0x${'bb'.repeat(20)}`
const sends = (count: number, from: Hex = A): SyntheticTx[] => Array.from({ length: count }, () => ({ from, to: B }))

function spool(stream: BlockStream = toyStream()): Database {
  return openSpool(join(mkdtempSync(join(tmpdir(), 'stack-block-stream-')), 'spool.db'), stream.migrations)
}

/** Blocks 0 to 5 carrying 0, 2, 5, 1, 0 and 1 transactions; from A, but B in blocks 3 and 5. */
async function sixBlocks(db: Database): Promise<void> {
  for (const [number, count] of [0, 2, 5, 1, 0, 1].entries()) await writeBlock(db, number, sends(count, number === 3 || number === 5 ? B : A))
}

const dump = (db: Database) =>
  Object.fromEntries(
    ['toy_senders', 'toy_senders_history', 'toy_blocks', 'toy_blocks_history', 'toy_first_seen'].map((table) => [
      table,
      db
        .query<Record<string, unknown>, []>(`SELECT * FROM ${table}`)
        .all()
        .map((row) => JSON.stringify(row, (_key, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)))
        .sort(),
    ]),
  )

/** Passes until caught up with block `head`. */
async function derive(db: Database, stream: BlockStream, head: number): Promise<void> {
  const writer = sqliteWriter(db)
  while (!(await runPass(writer, stream, head)).caughtUp);
}

test('a pass takes whole blocks after the cursor, about the limit of transactions, and at least one block', async () => {
  const passes: Array<[number, number]> = []
  const stream = toyStream(passes)
  const db = spool(stream)
  const writer = sqliteWriter(db)
  await sixBlocks(db)
  const limits = { txs: 3, blocks: 100 }
  const results: PassResult[] = []
  for (let pass = 0; pass < 3; pass++) results.push(await runPass(writer, stream, 5, { blocks: limits }))
  // Blocks 0 and 1 (two transactions: block 2 would pass the limit); block 2 alone, bigger than
  // the limit but whole; then 3 to 5.
  expect(passes).toEqual([
    [0, 1],
    [2, 2],
    [3, 5],
  ])
  expect(results.map(({ blocks, txs, caughtUp, cursor }) => ({ blocks, txs, caughtUp, block: cursor.blockNumber }))).toEqual([
    { blocks: 2, txs: 2, caughtUp: false, block: 1 },
    { blocks: 1, txs: 5, caughtUp: false, block: 2 },
    { blocks: 3, txs: 2, caughtUp: true, block: 5 },
  ])
  expect(await streamPosition(sqliteDb(db), 'toy')).toMatchObject({ cursorBlock: 5, lagBlocks: 0 })
  // Caught up, a pass only stamps the cursor; a new block is the next pass.
  expect((await runPass(writer, stream, 5)).caughtUp).toBe(true)
  await writeBlock(db, 6, sends(1))
  expect(await runPass(writer, stream, 6)).toMatchObject({ blocks: 1, txs: 1, caughtUp: true })
  expect(passes).toEqual([
    [0, 1],
    [2, 2],
    [3, 5],
    [6, 6],
  ])
  expect(db.query('SELECT hex(address) AS address, txs, blocks FROM toy_senders ORDER BY address').all()).toEqual([
    { address: A.slice(2).toUpperCase(), txs: 8, blocks: 3 },
    { address: B.slice(2).toUpperCase(), txs: 2, blocks: 2 },
  ])

  // The same spool in passes of at most two blocks, and with the follower's call (a log limit alone).
  const again: Array<[number, number]> = []
  const other = spool(toyStream(again))
  await sixBlocks(other)
  while (!(await runPass(sqliteWriter(other), toyStream(again), 5, { blocks: { txs: 100, blocks: 2 } })).caughtUp);
  expect(again).toEqual([
    [0, 1],
    [2, 3],
    [4, 5],
  ])
  const once: Array<[number, number]> = []
  const third = spool(toyStream(once))
  await sixBlocks(third)
  expect((await runPass(sqliteWriter(third), toyStream(once), 5, { logs: 3 })).caughtUp).toBe(true)
  expect(once).toEqual([[0, 5]])
  expect(dump(third)).toEqual(dump(other))
})

test('a spool that starts above the cursor, or holds nothing after it', async () => {
  const passes: Array<[number, number]> = []
  const stream = toyStream(passes)
  const db = spool(stream)
  const writer = sqliteWriter(db)
  await writeBlock(db, 10, sends(1))
  await writeBlock(db, 11, sends(2))
  expect((await runPass(writer, stream, 11)).caughtUp).toBe(true)
  expect(passes).toEqual([[0, 11]])
  // The spool's cursor beyond its last block (past blocks it never got): nothing to apply, and caught up there.
  await writer.transaction((tx) => setMeta(tx, 'cursor', '20'))
  expect(await runPass(writer, stream, 20)).toMatchObject({ blocks: 0, caughtUp: true, cursor: { blockNumber: 20 } })
  expect(passes).toEqual([[0, 11]])
})

test('a failing pass leaves its cursor and its rows as they were', async () => {
  let failing = true
  const stream = toyStream([], () => failing)
  const db = spool(stream)
  const writer = sqliteWriter(db)
  await sixBlocks(db)
  await expect(runPass(writer, stream, 5)).rejects.toThrow('the toy stream failed')
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(-1)
  expect(db.query('SELECT count(*) AS n FROM toy_senders_history').get()).toEqual({ n: 0 })
  failing = false
  await derive(db, stream, 5)
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(5)
})

test('a rollback leaves the tables as a run that stopped at the ancestor, and the cursor there', async () => {
  const stream = toyStream()
  const db = spool(stream)
  const writer = sqliteWriter(db)
  const stopped = spool(stream)
  await sixBlocks(db)
  for (let number = 0; number <= 2; number++) await writeBlock(stopped, number, sends([0, 2, 5][number]!))
  await derive(db, stream, 5)
  await derive(stopped, stream, 2)
  await rollbackTo(writer, 2, (tx) => rollbackStream(tx, stream, 2))
  expect(dump(db)).toEqual(dump(stopped))
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(2)
  // Below the cursor, a rollback changes nothing.
  await rollbackTo(writer, 4, (tx) => rollbackStream(tx, stream, 4))
  expect(dump(db)).toEqual(dump(stopped))
})

test('a pass told a head the spool no longer holds (read before a rollback) stops at the spool\'s cursor', async () => {
  const stream = toyStream()
  const db = spool(stream)
  const writer = sqliteWriter(db)
  await sixBlocks(db)
  await rollbackTo(writer, 2)
  // The caller read the head (5) before the rollback took the spool back to block 2.
  while (!(await runPass(writer, stream, 5)).caughtUp);
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(2)
  // The new blocks 3 to 5 are derived when they come, not skipped as seen.
  for (let number = 3; number <= 5; number++) await writeBlock(db, number, sends(1, B), 1)
  await derive(db, stream, 5)
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(5)
  expect(dump(db).toy_blocks).toEqual(dump(await derivedAfresh(stream)).toy_blocks)
})

/** A spool of blocks 0 to 2 of sixBlocks and three new ones of one transaction from B each, derived in one run. */
async function derivedAfresh(stream: BlockStream): Promise<Database> {
  const db = spool(stream)
  for (let number = 0; number <= 2; number++) await writeBlock(db, number, sends([0, 2, 5][number]!))
  for (let number = 3; number <= 5; number++) await writeBlock(db, number, sends(1, B), 1)
  await derive(db, stream, 5)
  return db
}

test('pruning drops the history below a block from every versioned table, and a rollback above it stays exact', async () => {
  const stream = toyStream()
  const db = spool(stream)
  const writer = sqliteWriter(db)
  await sixBlocks(db)
  for (let number = 6; number < 12; number++) await writeBlock(db, number, sends(number % 3, number % 2 ? A : B))
  await derive(db, stream, 11)
  const before = dump(db)
  const blocksOf = (table: string) =>
    db
      .query<{ block: number }, []>(`SELECT DISTINCT block FROM ${table} ORDER BY block`)
      .all()
      .map((row) => row.block)
  expect(blocksOf('toy_blocks_history')).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])

  expect(await boundStreamHistory(writer, stream, { below: 8, resetBlock: null })).toBe(false)
  expect(blocksOf('toy_blocks_history')).toEqual([8, 9, 10, 11])
  expect(blocksOf('toy_senders_history').every((block) => block >= 8)).toBe(true)
  const after = dump(db)
  // The current rows and the rows created at a block are untouched; only history below 8 went.
  for (const table of ['toy_senders', 'toy_blocks', 'toy_first_seen']) expect(after[table]).toEqual(before[table]!)
  expect(after.toy_senders_history).toEqual(before.toy_senders_history!.filter((row) => JSON.parse(row).block >= 8))

  // The deepest rollback the pruning allows (to block 7) is as exact as before it.
  const stopped = spool(stream)
  await sixBlocks(stopped)
  for (let number = 6; number < 8; number++) await writeBlock(stopped, number, sends(number % 3, number % 2 ? A : B))
  await derive(stopped, stream, 7)
  await rollbackTo(writer, 7, (tx) => rollbackStream(tx, stream, 7))
  const rolledBack = dump(db)
  const expected = dump(stopped)
  for (const table of ['toy_senders', 'toy_blocks', 'toy_first_seen']) expect(rolledBack[table]).toEqual(expected[table]!)
  expect(rolledBack.toy_blocks_history).toEqual([])
})

test('a pass keeps no history below the block it is told, and a rollback to the block before it stays exact', async () => {
  const stream = toyStream()
  const db = spool(stream)
  const writer = sqliteWriter(db)
  await sixBlocks(db)
  for (let number = 6; number < 12; number++) await writeBlock(db, number, sends(number % 3, number % 2 ? A : B))
  while (!(await runPass(writer, stream, 11, { blocks: { txs: 4, blocks: 3 }, historyFrom: 8 })).caughtUp);
  const blocksOf = (table: string) =>
    db
      .query<{ block: number }, []>(`SELECT DISTINCT block FROM ${table} ORDER BY block`)
      .all()
      .map((row) => row.block)
  expect(blocksOf('toy_blocks_history')).toEqual([8, 9, 10, 11])
  expect(blocksOf('toy_senders_history').every((block) => block >= 8)).toBe(true)

  // The rows are those of a pass that kept everything.
  const full = spool(stream)
  await sixBlocks(full)
  for (let number = 6; number < 12; number++) await writeBlock(full, number, sends(number % 3, number % 2 ? A : B))
  await derive(full, stream, 11)
  for (const table of ['toy_senders', 'toy_blocks', 'toy_first_seen']) expect(dump(db)[table]).toEqual(dump(full)[table]!)

  // The deepest rollback that history allows (to block 7) is exact.
  const stopped = spool(stream)
  await sixBlocks(stopped)
  for (let number = 6; number < 8; number++) await writeBlock(stopped, number, sends(number % 3, number % 2 ? A : B))
  await derive(stopped, stream, 7)
  await rollbackTo(writer, 7, (tx) => rollbackStream(tx, stream, 7))
  for (const table of ['toy_senders', 'toy_blocks', 'toy_first_seen']) expect(dump(db)[table]).toEqual(dump(stopped)[table]!)
})

test('a log pass carries the logs of its signatures in chain order, a limit at a time, whatever their mix', async () => {
  const db = spool()
  const writer = sqliteWriter(db)
  const topic = (byte: number): Hex => `0x${byte.toString(16).padStart(2, '0').repeat(32)}`
  const [swap, sync, mint, other] = [topic(1), topic(2), topic(3), topic(4)]
  const insert = db.query('INSERT INTO logs (tx_id, log_index, block_number, address, topic0, data) VALUES (?, ?, ?, ?, ?, ?)')
  // 40 blocks of 3 transactions; each transaction's logs a mix of the four signatures, some several times.
  const mix = [[swap, sync, swap], [other, mint], [sync, other, sync, swap, mint], [mint], [other], []]
  const expected: string[] = []
  for (let block = 0; block < 40; block++) {
    for (let index = 0; index < 3; index++) {
      const id = txId(block, index)
      mix[(block * 3 + index) % mix.length]!.forEach((topic0, logIndex) => {
        insert.run(id, logIndex, block, Buffer.alloc(20), Buffer.from(topic0.slice(2), 'hex'), Buffer.alloc(0))
        if (topic0 !== other && block <= 35) expected.push(`${block}:${id}:${logIndex}`)
      })
    }
  }
  const seen: string[] = []
  const sizes: number[] = []
  const stream: LogStream = {
    name: 'merged',
    migrations: [],
    tables: [],
    topics: [swap, sync, mint],
    apply: async (_tx, logs: SpoolLog[]) => {
      sizes.push(logs.length)
      for (const log of logs) seen.push(`${log.blockNumber}:${log.txId}:${log.logIndex}`)
    },
  }
  // The spool holds the 40 blocks; passes asked to go no further than block 35 carry nothing after it.
  db.run("INSERT INTO meta (key, value) VALUES ('cursor', '39') ON CONFLICT (key) DO UPDATE SET value = excluded.value")
  while (!(await runPass(writer, stream, 35, { logs: 7 })).caughtUp);
  expect(seen).toEqual(expected)
  expect(sizes.slice(0, -1).every((size) => size === 7)).toBe(true)
  expect((await readStreamCursor(writer, 'merged')).blockNumber).toBe(35)
})

/** Blocks `from` to `through` of twenty: 0 to 5 as sixBlocks, then 6 to 19, A and B sending in turns. */
async function twentyBlocks(db: Database, through = 19, from = 0): Promise<void> {
  const counts = [0, 2, 5, 1, 0, 1]
  for (let number = from; number <= through; number++) {
    if (number < 6) await writeBlock(db, number, sends(counts[number]!, number === 3 || number === 5 ? B : A))
    else await writeBlock(db, number, sends(1 + (number % 3), number % 2 ? A : B))
  }
}

/** A spool that saw the twenty blocks and derived them; its history bounded below 15 with the reset point at 3, in small batches. */
async function boundedWithReset() {
  const stream = toyStream()
  const db = spool(stream)
  const writer = sqliteWriter(db)
  await twentyBlocks(db)
  await derive(db, stream, 19)
  const before = dump(db)
  let batches = 1
  while (await boundStreamHistory(writer, stream, { below: 15, resetBlock: 3 }, 3)) batches++
  return { stream, db, writer, before, batches }
}

/** The tables of a spool that stopped at block `head` (history aside). */
async function stoppedAt(stream: BlockStream, head: number) {
  const stopped = spool(stream)
  await twentyBlocks(stopped, head)
  await derive(stopped, stream, head)
  return dump(stopped)
}

const CURRENT = ['toy_senders', 'toy_blocks', 'toy_first_seen']

/** The current tables of `tables` (a dump) equal those of a spool that stopped at block `head`. */
async function expectStoppedAt(tables: ReturnType<typeof dump>, stream: BlockStream, head: number): Promise<void> {
  const expected = await stoppedAt(stream, head)
  for (const table of CURRENT) expect(tables[table]).toEqual(expected[table]!)
}
const blocksOf = (db: Database, table: string) =>
  db
    .query<{ block: number }, []>(`SELECT block FROM ${table} ORDER BY block`)
    .all()
    .map((row) => row.block)

test('with a reset point, the history below the window is folded into its state, one row a key, in batches', async () => {
  const { db, writer, before, batches } = await boundedWithReset()
  expect(batches).toBeGreaterThan(2)
  // Below the reset point nothing; the block after it holds one row a key; from 15 on, the history whole.
  expect(blocksOf(db, 'toy_blocks_history')).toEqual([4, 15, 16, 17, 18, 19])
  expect(blocksOf(db, 'toy_senders_history')).toEqual([4, 4, 15, 16, 17, 18, 19])
  const after = dump(db)
  for (const table of CURRENT) expect(after[table]).toEqual(before[table]!)
  // The rows of block 4 are how each row stood at the end of block 3.
  expect(db.query('SELECT hex(address) AS address, txs, blocks, existed FROM toy_senders_history WHERE block = 4 ORDER BY address').all()).toEqual([
    { address: A.slice(2).toUpperCase(), txs: 7, blocks: 2, existed: 1 },
    { address: B.slice(2).toUpperCase(), txs: 1, blocks: 1, existed: 1 },
  ])
  // Done: another call has nothing to do, and the bound moving on folds more into the same rows.
  expect(await boundStreamHistory(writer, toyStream(), { below: 15, resetBlock: 3 })).toBe(false)
  expect(await boundStreamHistory(writer, toyStream(), { below: 18, resetBlock: 3 })).toBe(false)
  expect(blocksOf(db, 'toy_blocks_history')).toEqual([4, 18, 19])
})

test('a rollback to the reset point after the fold leaves the rows of a run that stopped there', async () => {
  const { stream, db, writer } = await boundedWithReset()
  await rollbackTo(writer, 3, (tx) => rollbackStream(tx, stream, 3))
  const rolledBack = dump(db)
  await expectStoppedAt(rolledBack, stream, 3)
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(3)
  expect(rolledBack.toy_blocks_history).toEqual([])
  // The fold is forgotten with its rows: a later rollback is taken as asked.
  await twentyBlocks(db, 19, 4)
  await derive(db, stream, 19)
  await rollbackTo(writer, 10, (tx) => rollbackStream(tx, stream, 10))
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(10)
})

test('a rollback into the folded blocks goes back to the reset point, and deriving again gives the exact rows', async () => {
  const { stream, db, writer } = await boundedWithReset()
  await rollbackTo(writer, 10, (tx) => rollbackStream(tx, stream, 10))
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(3)
  await derive(db, stream, 10)
  await expectStoppedAt(dump(db), stream, 10)

  // The deepest rollback the window allows (to 14) stays where it was asked, and exact.
  const other = await boundedWithReset()
  await rollbackTo(other.writer, 14, (tx) => rollbackStream(tx, other.stream, 14))
  expect((await readStreamCursor(other.writer, 'toy')).blockNumber).toBe(14)
  await expectStoppedAt(dump(other.db), other.stream, 14)
})

test("a fold stays its reset point's when another reset point comes: a rollback to the new one goes back to the old, exact", async () => {
  const { stream, db, writer } = await boundedWithReset()
  // A later session of the same spool whose reset point is block 10.
  expect(await boundStreamHistory(writer, stream, { below: 18, resetBlock: 10 })).toBe(false)
  expect(blocksOf(db, 'toy_blocks_history')).toEqual([4, 18, 19])
  await rollbackTo(writer, 10, (tx) => rollbackStream(tx, stream, 10))
  expect((await readStreamCursor(writer, 'toy')).blockNumber).toBe(3)
  await derive(db, stream, 10)
  await expectStoppedAt(dump(db), stream, 10)
})
