import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { VersionedTable } from './tables.ts'

/**
 * A versioned table at work (its declaration: tables.ts): the current rows, and beside them the
 * whole row as it stood at the end of every block in which it changed. Rolling back to a block is
 * then exact and cheap: drop the history above it, and put back, for each row that changed, the
 * last version that remains (or nothing, if it was born or deleted by then). The result is what a
 * run that never saw the orphaned blocks would have written.
 */
export function versionedRows(db: Database, spec: VersionedTable) {
  const { table, history, keys, columns, removable } = spec
  const all = [...keys, ...columns]
  const byKey = keys.map((key) => `${key} = ?`).join(' AND ')
  const marks = (count: number) => Array.from({ length: count }, () => '?').join(', ')
  const versionColumns = removable ? [...all, 'block', 'removed'] : [...all, 'block']
  // db.query caches each statement on the connection, so these are compiled once.
  const load = db.query<Record<string, unknown>, SQLQueryBindings[]>(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${byKey}`)
  const saveCurrent = db.query(`INSERT OR REPLACE INTO ${table} (${all.join(', ')}) VALUES (${marks(all.length)})`)
  const removeCurrent = db.query(`DELETE FROM ${table} WHERE ${byKey}`)
  const saveVersion = db.query(`INSERT OR REPLACE INTO ${history} (${versionColumns.join(', ')}) VALUES (${marks(versionColumns.length)})`)

  return {
    /** The current row's columns, or null when there is none. */
    load: (key: SQLQueryBindings[]) => load.get(...key),
    /** Writes the row as it stands at the end of `block`, as current and into the history. */
    save: (key: SQLQueryBindings[], values: SQLQueryBindings[], block: number) => {
      saveCurrent.run(...key, ...values)
      if (removable) saveVersion.run(...key, ...values, block, 0)
      else saveVersion.run(...key, ...values, block)
    },
    /** Deletes the row at the end of `block`; its last `values` stay in the history, marked removed. */
    remove: (key: SQLQueryBindings[], values: SQLQueryBindings[], block: number) => {
      if (!removable) throw new Error(`${table} is not declared removable`)
      removeCurrent.run(...key)
      saveVersion.run(...key, ...values, block, 1)
    },
    /** Forgets every version above `ancestor` and restores, row by row, the last one that remains. */
    rollback: (ancestor: number) => {
      const touched = db.query<Record<string, SQLQueryBindings>, [number]>(`SELECT DISTINCT ${keys.join(', ')} FROM ${history} WHERE block > ?`).all(ancestor)
      if (touched.length === 0) return
      db.run(`DELETE FROM ${history} WHERE block > ?`, [ancestor])
      const latest = db.query<Record<string, SQLQueryBindings>, SQLQueryBindings[]>(
        `SELECT ${[...all, ...(removable ? ['removed'] : [])].join(', ')} FROM ${history} WHERE ${byKey} ORDER BY block DESC LIMIT 1`,
      )
      for (const row of touched) {
        const key = keys.map((name) => row[name]!)
        const kept = latest.get(...key)
        if (kept && !kept.removed) saveCurrent.run(...all.map((name) => kept[name]!))
        else removeCurrent.run(...key)
      }
    },
  }
}

export type VersionedRows = ReturnType<typeof versionedRows>
