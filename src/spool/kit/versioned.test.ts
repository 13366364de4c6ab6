import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { sqliteWriter } from '../sqlite/engine.ts'
import type { SqlValue } from '../engine.ts'
import { compareKeys, Entities } from './entities.ts'
import { versionedHistorySql, versionedTable } from './tables.ts'
import { versionedRows } from './versioned.ts'

function setup() {
  const db = new Database(':memory:', { strict: true })
  const spec = versionedTable({ table: 'things', keys: ['id'], columns: ['value'] })
  db.run('CREATE TABLE things (id TEXT PRIMARY KEY, value INTEGER NOT NULL)')
  db.run(versionedHistorySql(spec))
  const writer = sqliteWriter(db)
  // Each pass, and each rollback, runs in a transaction of the writer's, as runPass runs them.
  const table = { rollback: (ancestor: number) => writer.transaction((tx) => versionedRows(tx, spec).rollback(ancestor)) }
  const entities = (work: (pass: Entities<{ value: number }>) => Promise<void>) =>
    writer.transaction((tx) => work(new Entities<{ value: number }>(tx, spec, (thing) => [thing.value], (row) => ({ value: row.value as number }))))
  const current = () => db.query<{ id: string; value: number }, []>('SELECT id, value FROM things ORDER BY id').all()
  const history = () => db.query<{ block: number; id: string; value: number | null; existed: number }, []>('SELECT block, id, value, existed FROM things_history ORDER BY block, id').all()
  return { db, table, entities, current, history }
}

describe('state versioned by block', () => {
  test('the history keeps how a row stood before each block that changed it, once per block', async () => {
    const { entities, current, history } = setup()
    await entities(async (pass) => {
      ;(await pass.edit('a', ['a'], 5, () => ({ value: 0 })))!.value = 1
      ;(await pass.edit('a', ['a'], 5))!.value = 2
      ;(await pass.edit('a', ['a'], 7))!.value = 3
      await pass.edit('b', ['b'], 7, () => ({ value: 10 }))
      await pass.flush()
    })
    // A later pass continues block 7 (a pass may stop inside a block) and goes on to 9: the entry
    // for block 7 stays how the row stood before block 7, not halfway through it.
    await entities(async (next) => {
      ;(await next.edit('a', ['a'], 7))!.value = 4
      ;(await next.edit('a', ['a'], 9))!.value = 5
      expect(await next.edit('c', ['c'], 9)).toBeNull()
      await next.flush()
    })
    expect(current()).toEqual([{ id: 'a', value: 5 }, { id: 'b', value: 10 }])
    expect(history()).toEqual([
      { block: 5, id: 'a', value: null, existed: 0 },
      { block: 7, id: 'a', value: 2, existed: 1 },
      { block: 7, id: 'b', value: null, existed: 0 },
      { block: 9, id: 'a', value: 4, existed: 1 },
    ])
  })

  test('a rollback puts rows back as they stood at the ancestor, and drops rows born after it', async () => {
    const { table, entities, current, history } = setup()
    await entities(async (pass) => {
      ;(await pass.edit('a', ['a'], 5, () => ({ value: 0 })))!.value = 2
      ;(await pass.edit('a', ['a'], 8))!.value = 3
      await pass.edit('b', ['b'], 8, () => ({ value: 10 }))
      await pass.edit('c', ['c'], 3, () => ({ value: 30 }))
      await pass.flush()
    })
    await table.rollback(6)
    expect(current()).toEqual([{ id: 'a', value: 2 }, { id: 'c', value: 30 }])
    expect(history().map((entry) => [entry.block, entry.id])).toEqual([[3, 'c'], [5, 'a']])
    await table.rollback(4)
    expect(current()).toEqual([{ id: 'c', value: 30 }])
    await table.rollback(0)
    expect(current()).toEqual([])
  })

  test('a row deleted in one block and born again in a later one: a rollback to either side of the deletion', async () => {
    const { table, entities, current } = setup()
    await entities(async (pass) => {
      await pass.edit('a', ['a'], 2, () => ({ value: 1 }))
      await pass.remove('a', ['a'], 4)
      expect(await pass.find('a', ['a'])).toBeNull()
      await pass.remove('b', ['b'], 4) // nothing to delete: nothing written
      await pass.flush()
    })
    expect(current()).toEqual([])
    await entities(async (next) => {
      expect(await next.find('a', ['a'])).toBeNull()
      await next.edit('a', ['a'], 6, () => ({ value: 7 }))
      await next.flush()
    })
    expect(current()).toEqual([{ id: 'a', value: 7 }])
    await table.rollback(5)
    expect(current()).toEqual([])
    await table.rollback(3)
    expect(current()).toEqual([{ id: 'a', value: 1 }])
  })

  test('deleted and made again within one block: one entry, how it stood before the block', async () => {
    const { table, entities, current, history } = setup()
    await entities(async (pass) => {
      await pass.edit('a', ['a'], 2, () => ({ value: 1 }))
      await pass.remove('a', ['a'], 3)
      await pass.edit('a', ['a'], 3, () => ({ value: 5 }))
      await pass.flush()
    })
    expect(current()).toEqual([{ id: 'a', value: 5 }])
    expect(history()).toEqual([
      { block: 2, id: 'a', value: null, existed: 0 },
      { block: 3, id: 'a', value: 1, existed: 1 },
    ])
    await table.rollback(2)
    expect(current()).toEqual([{ id: 'a', value: 1 }])
  })

  test('a row the stream read itself is not looked up again, and a known absence is trusted', async () => {
    const { db, entities, current } = setup()
    db.run("INSERT INTO things (id, value) VALUES ('a', 1)")
    await entities(async (pass) => {
      pass.know('a', ['a'], { value: 9 })
      pass.know('b', ['b'], null)
      expect(await pass.find('a', ['a'])).toEqual({ value: 9 })
      expect(await pass.edit('b', ['b'], 1)).toBeNull()
      // Known once: a later word does not replace what the pass holds.
      pass.know('a', ['a'], null)
      ;(await pass.edit('a', ['a'], 1))!.value = 10
      await pass.flush()
    })
    expect(current()).toEqual([{ id: 'a', value: 10 }])
  })

  test('a pass writes its rows in key order, whatever order it changed them in', async () => {
    const { db, entities } = setup()
    db.run('CREATE TABLE written (id TEXT)')
    db.run('CREATE TRIGGER things_written AFTER INSERT ON things BEGIN INSERT INTO written (id) VALUES (NEW.id); END')
    await entities(async (pass) => {
      for (const id of ['m', 'b', 'z', 'a']) await pass.edit(id, [id], 1, () => ({ value: 0 }))
      await pass.flush()
    })
    expect(db.query<{ id: string }, []>('SELECT id FROM written ORDER BY rowid').all().map((row) => row.id)).toEqual(['a', 'b', 'm', 'z'])
  })

  test("keys compare as SQLite orders them: numbers by value (negative ticks too), then text, then bytes", () => {
    const keys: SqlValue[][] = [[new Uint8Array([2])], ['b'], [3, 'a'], [-5, 'z'], [new Uint8Array([1, 9])], ['a'], [3, 'b'], [-5, 'a']]
    expect([...keys].sort(compareKeys)).toEqual([[-5, 'a'], [-5, 'z'], [3, 'a'], [3, 'b'], ['a'], ['b'], [new Uint8Array([1, 9])], [new Uint8Array([2])]])
  })
})
