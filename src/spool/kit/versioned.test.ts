import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { Entities } from './entities.ts'
import { versionedTable } from './tables.ts'
import { versionedRows } from './versioned.ts'

function setup(removable = false) {
  const db = new Database(':memory:', { strict: true })
  db.run('CREATE TABLE things (id TEXT PRIMARY KEY, value INTEGER NOT NULL)')
  db.run(`CREATE TABLE things_history (id TEXT NOT NULL, block INTEGER NOT NULL, value INTEGER NOT NULL${removable ? ', removed INTEGER NOT NULL' : ''}, PRIMARY KEY (id, block))`)
  const spec = versionedTable({ table: 'things', keys: ['id'], columns: ['value'], removable })
  const table = versionedRows(db, spec)
  const entities = () => new Entities<{ value: number }>(db, spec, (thing) => [thing.value], (row) => ({ value: row.value as number }))
  const current = () => db.query<{ id: string; value: number }, []>('SELECT id, value FROM things ORDER BY id').all()
  const history = () => db.query<{ id: string; block: number; value: number; removed?: number }, []>(`SELECT id, block, value${removable ? ', removed' : ''} FROM things_history ORDER BY id, block`).all()
  return { db, table, entities, current, history }
}

describe('state versioned by block', () => {
  test('one version per block in which a row changed, the last of each block', () => {
    const { entities, current, history } = setup()
    const pass = entities()
    pass.edit('a', ['a'], 5, () => ({ value: 0 }))!.value = 1
    pass.edit('a', ['a'], 5)!.value = 2
    pass.edit('a', ['a'], 7)!.value = 3
    pass.edit('b', ['b'], 7, () => ({ value: 10 }))
    pass.flush()
    // A later pass continues block 7 (a pass may stop inside a block) and goes on to 9.
    const next = entities()
    next.edit('a', ['a'], 7)!.value = 4
    next.edit('a', ['a'], 9)!.value = 5
    expect(next.edit('c', ['c'], 9)).toBeNull()
    next.flush()
    expect(current()).toEqual([{ id: 'a', value: 5 }, { id: 'b', value: 10 }])
    expect(history()).toEqual([
      { id: 'a', block: 5, value: 2 },
      { id: 'a', block: 7, value: 4 },
      { id: 'a', block: 9, value: 5 },
      { id: 'b', block: 7, value: 10 },
    ])
  })

  test('a rollback restores the last remaining version, and drops rows born after it', () => {
    const { table, entities, current, history } = setup()
    const pass = entities()
    pass.edit('a', ['a'], 5, () => ({ value: 0 }))!.value = 2
    pass.edit('a', ['a'], 8)!.value = 3
    pass.edit('b', ['b'], 8, () => ({ value: 10 }))
    pass.edit('c', ['c'], 3, () => ({ value: 30 }))
    pass.flush()
    table.rollback(6)
    expect(current()).toEqual([{ id: 'a', value: 2 }, { id: 'c', value: 30 }])
    expect(history()).toEqual([
      { id: 'a', block: 5, value: 2 },
      { id: 'c', block: 3, value: 30 },
    ])
    table.rollback(4)
    expect(current()).toEqual([{ id: 'c', value: 30 }])
  })

  test('a removable row: deleted in one block, born again in a later one, and a rollback to either side of its deletion', () => {
    const { table, entities, current, history } = setup(true)
    const pass = entities()
    pass.edit('a', ['a'], 2, () => ({ value: 1 }))
    pass.remove('a', ['a'], 4)
    expect(pass.find('a', ['a'])).toBeNull()
    pass.remove('b', ['b'], 4) // nothing to delete: nothing written
    pass.flush()
    expect(current()).toEqual([])
    const next = entities()
    expect(next.find('a', ['a'])).toBeNull()
    next.edit('a', ['a'], 6, () => ({ value: 7 }))
    next.flush()
    expect(history()).toEqual([
      { id: 'a', block: 2, value: 1, removed: 0 },
      { id: 'a', block: 4, value: 1, removed: 1 },
      { id: 'a', block: 6, value: 7, removed: 0 },
    ])
    expect(current()).toEqual([{ id: 'a', value: 7 }])
    table.rollback(5)
    expect(current()).toEqual([])
    table.rollback(3)
    expect(current()).toEqual([{ id: 'a', value: 1 }])
  })

  test('deleted and made again within one block: one version, the block-end state', () => {
    const { entities, current, history } = setup(true)
    const pass = entities()
    pass.edit('a', ['a'], 2, () => ({ value: 1 }))
    pass.remove('a', ['a'], 3)
    pass.edit('a', ['a'], 3, () => ({ value: 5 }))
    pass.flush()
    expect(current()).toEqual([{ id: 'a', value: 5 }])
    expect(history()).toEqual([
      { id: 'a', block: 2, value: 1, removed: 0 },
      { id: 'a', block: 3, value: 5, removed: 0 },
    ])
  })
})
