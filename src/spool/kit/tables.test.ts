import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { txId } from '../codec.ts'
import { sqliteWriter } from '../sqlite/engine.ts'
import { Entities } from './entities.ts'
import { createdTable, eventTable, rollbackTables, tableNames, versionedHistorySql, versionedTable } from './tables.ts'

// A stream's tables, one of each kind, rolled back from their declarations alone.
const pools = createdTable('pools', 'created_block')
const swaps = eventTable('swaps')
const reserves = versionedTable({ table: 'reserves', keys: ['pool'], columns: ['amount'] })
const holders = versionedTable({ table: 'holders', keys: ['pool', 'holder'], columns: ['shares'] })
const TABLES = [pools, swaps, reserves, holders]

function setup() {
  const db = new Database(':memory:', { strict: true })
  db.run('CREATE TABLE pools (pool TEXT PRIMARY KEY, created_block INTEGER NOT NULL)')
  db.run('CREATE TABLE swaps (tx_id INTEGER NOT NULL, log_index INTEGER NOT NULL, pool TEXT NOT NULL, PRIMARY KEY (tx_id, log_index))')
  db.run('CREATE TABLE reserves (pool TEXT PRIMARY KEY, amount INTEGER NOT NULL)')
  db.run('CREATE TABLE holders (pool TEXT NOT NULL, holder TEXT NOT NULL, shares INTEGER NOT NULL, PRIMARY KEY (pool, holder))')
  db.run(versionedHistorySql(reserves))
  db.run(versionedHistorySql(holders))
  const writer = sqliteWriter(db)
  /** What one block does: a pool made, a swap, reserves set, shares moved from one holder to another. */
  type Block = (number: number, pool: string, amount: number, from: string | null, to: string, index?: number) => Promise<void>
  /** A pass: its blocks in one of the writer's transactions, and its rows written at its end. */
  const pass = (blocks: (block: Block) => Promise<void>) =>
    writer.transaction(async (tx) => {
      const amounts = new Entities<{ amount: number }>(tx, reserves, (row) => [row.amount], (row) => ({ amount: row.amount as number }))
      const shares = new Entities<{ shares: number }>(tx, holders, (row) => [row.shares], (row) => ({ shares: row.shares as number }))
      await blocks(async (number, pool, amount, from, to, index = 0) => {
        await tx.run('INSERT INTO pools (pool, created_block) VALUES (?, ?) ON CONFLICT DO NOTHING', pool, number)
        await tx.run('INSERT INTO swaps (tx_id, log_index, pool) VALUES (?, 0, ?)', txId(number, index), pool)
        ;(await amounts.edit(pool, [pool], number, () => ({ amount: 0 })))!.amount = amount
        if (from) await shares.remove(`${pool}:${from}`, [pool, from], number)
        await shares.edit(`${pool}:${to}`, [pool, to], number, () => ({ shares: 1 }))
      })
      await amounts.flush()
      await shares.flush()
    })
  const rollback = (ancestor: number) => writer.transaction((tx) => rollbackTables(tx, TABLES, ancestor))
  const dump = () =>
    Object.fromEntries(
      TABLES.flatMap(tableNames).map((name) => [name, db.query<Record<string, unknown>, []>(`SELECT * FROM ${name}`).all().map((row) => JSON.stringify(row)).sort()]),
    )
  return { db, pass, rollback, dump }
}

test('every table is left as a run that stopped at the ancestor left it', async () => {
  const { db, pass, rollback, dump } = setup()
  await pass(async (block) => {
    await block(1, 'p', 10, null, 'alice')
    await block(2, 'p', 20, 'alice', 'bob')
  })
  const atTwo = dump()
  await pass(async (block) => {
    await block(3, 'p', 30, 'bob', 'carol')
    await block(3, 'q', 5, null, 'dave', 1)
  })
  await pass(async (block) => {
    await block(4, 'q', 6, 'dave', 'erin')
  })

  await rollback(2)
  expect(dump()).toEqual(atTwo)
  // The versioned rows are back as they stood, the holder deleted in block 3 is back.
  expect(db.query('SELECT pool, amount FROM reserves').all()).toEqual([{ pool: 'p', amount: 20 }])
  expect(db.query('SELECT pool, holder FROM holders').all()).toEqual([{ pool: 'p', holder: 'bob' }])
})

test('events above the ancestor are deleted by transaction, creations by block, nothing at or below it', async () => {
  const { db, pass, rollback } = setup()
  await pass(async (block) => {
    await block(1, 'p', 10, null, 'a')
    await block(5, 'q', 10, null, 'b')
  })
  await rollback(4)
  expect(db.query('SELECT tx_id FROM swaps').all()).toEqual([{ tx_id: txId(1, 0) }])
  expect(db.query('SELECT pool FROM pools').all()).toEqual([{ pool: 'p' }])
  expect(db.query('SELECT pool FROM reserves').all()).toEqual([{ pool: 'p' }])
  await rollback(0)
  for (const name of TABLES.flatMap(tableNames)) expect([name, db.query(`SELECT count(*) AS n FROM ${name}`).get()]).toEqual([name, { n: 0 }])
})
