import type { Database, SQLQueryBindings } from 'bun:sqlite'

/**
 * A table of current state (reserves, pool slot, tick liquidity, position totals) with a
 * history beside it: the whole row as it stood at the end of every block in which it changed.
 * Rolling back to a block is then exact and cheap: drop the history above it, and put back, for
 * each row that changed, the last version that remains (or nothing, if it was born later). The
 * result is what a run that never saw the orphaned blocks would have written.
 *
 * The history table has the current table's columns plus `block`, keyed by (keys..., block).
 */
export type VersionedSpec = { current: string; history: string; keys: readonly string[]; columns: readonly string[] }

export function versionedTable(db: Database, spec: VersionedSpec) {
  const { current, history, keys, columns } = spec
  const all = [...keys, ...columns]
  const byKey = keys.map((key) => `${key} = ?`).join(' AND ')
  const marks = (count: number) => Array.from({ length: count }, () => '?').join(', ')
  // db.query caches each statement on the connection, so these are compiled once.
  const load = db.query<Record<string, unknown>, SQLQueryBindings[]>(`SELECT ${columns.join(', ')} FROM ${current} WHERE ${byKey}`)
  const saveCurrent = db.query(`INSERT OR REPLACE INTO ${current} (${all.join(', ')}) VALUES (${marks(all.length)})`)
  const saveHistory = db.query(`INSERT OR REPLACE INTO ${history} (${all.join(', ')}, block) VALUES (${marks(all.length + 1)})`)

  return {
    /** The current row's columns, or null when there is none. */
    load: (key: SQLQueryBindings[]) => load.get(...key),
    /** Writes the row as it stands at the end of `block`, as current and into the history. */
    save: (key: SQLQueryBindings[], values: SQLQueryBindings[], block: number) => {
      saveCurrent.run(...key, ...values)
      saveHistory.run(...key, ...values, block)
    },
    /** Forgets every version above `ancestor` and restores, row by row, the last one that remains. */
    rollback: (ancestor: number) => {
      const keyList = keys.join(', ')
      const touched = db.query<Record<string, SQLQueryBindings>, [number]>(`SELECT DISTINCT ${keyList} FROM ${history} WHERE block > ?`).all(ancestor)
      db.run(`DELETE FROM ${history} WHERE block > ?`, [ancestor])
      const latest = db.query<Record<string, SQLQueryBindings>, SQLQueryBindings[]>(
        `SELECT ${all.join(', ')} FROM ${history} WHERE ${byKey} ORDER BY block DESC LIMIT 1`,
      )
      const remove = db.query(`DELETE FROM ${current} WHERE ${byKey}`)
      for (const row of touched) {
        const key = keys.map((name) => row[name]!)
        const kept = latest.get(...key)
        if (kept) saveCurrent.run(...all.map((name) => kept[name]!))
        else remove.run(...key)
      }
    },
  }
}

export type VersionedTable = ReturnType<typeof versionedTable>
