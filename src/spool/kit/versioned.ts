import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { VersionedTable } from './tables.ts'

/**
 * Per connection, the first block whose history the running pass keeps (set by runPass through
 * keepingHistoryFrom). A rollback never reaches below the deepest reorganisation the spool
 * follows, so how a row stood before an older block is never read: a pass over old blocks, as
 * in a catch-up, writes the rows and not their history. The spool records how deep the history
 * it kept goes, and never rolls back below it (follower.ts).
 */
const historyFrom = new WeakMap<Database, number>()

/** Runs `pass` keeping the history of blocks `from` and later only. */
export function keepingHistoryFrom<T>(db: Database, from: number, pass: () => T): T {
  const before = historyFrom.get(db)
  historyFrom.set(db, from)
  try {
    return pass()
  } finally {
    if (before === undefined) historyFrom.delete(db)
    else historyFrom.set(db, before)
  }
}

/**
 * A versioned table at work (its declaration: tables.ts). Beside the current rows, its history
 * keeps, for every block that changed a row, the row as it stood before that block (or that
 * there was none), keyed by (block, keys...) so that it is written in block order, appended
 * rather than scattered. Rolling back to a block is then exact and cheap: for each row changed
 * above it, the earliest such entry is how the row stood at the end of that block; put it back
 * (or delete the row), and drop the history above the block. The result is what a run that
 * never saw the orphaned blocks would have written.
 */
export function versionedRows(db: Database, spec: VersionedTable) {
  const { table, history, keys, columns } = spec
  const all = [...keys, ...columns]
  const byKey = keys.map((key) => `${key} = ?`).join(' AND ')
  const marks = (count: number) => Array.from({ length: count }, () => '?').join(', ')
  const nulls = columns.map(() => null)
  // db.query caches each statement on the connection, so these are compiled once.
  const load = db.query<Record<string, unknown>, SQLQueryBindings[]>(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${byKey}`)
  const write = db.query(`INSERT OR REPLACE INTO ${table} (${all.join(', ')}) VALUES (${marks(all.length)})`)
  const remove = db.query(`DELETE FROM ${table} WHERE ${byKey}`)
  // The first entry for a row and block stands: a pass that starts inside a block finds the row
  // as the previous pass left it, halfway through that block, which is not how it stood before.
  const remember = db.query(`INSERT OR IGNORE INTO ${history} (block, ${all.join(', ')}, existed) VALUES (${marks(all.length + 2)})`)
  const keptFrom = historyFrom.get(db) ?? Number.NEGATIVE_INFINITY

  return {
    /** The current row's columns, or null when there is none. */
    load: (key: SQLQueryBindings[]) => load.get(...key),
    /** Whether the pass keeps how rows stood before `block`. */
    keepsHistoryOf: (block: number) => block >= keptFrom,
    /** Records how the row stood before `block` changed it: its columns, or null when there was none. */
    remember: (key: SQLQueryBindings[], values: SQLQueryBindings[] | null, block: number) => {
      remember.run(block, ...key, ...(values ?? nulls), values === null ? 0 : 1)
    },
    /** Writes the row as it stands now. */
    write: (key: SQLQueryBindings[], values: SQLQueryBindings[]) => write.run(...key, ...values),
    /** Deletes the row. */
    remove: (key: SQLQueryBindings[]) => remove.run(...key),
    /** Puts every row changed above `ancestor` back as it stood at the end of `ancestor`, and forgets the history above it. */
    rollback: (ancestor: number) => {
      const entries = db
        .query<Record<string, SQLQueryBindings>, [number]>(`SELECT ${all.join(', ')}, existed FROM ${history} WHERE block > ? ORDER BY block`)
        .all(ancestor)
      const restored = new Set<string>()
      for (const entry of entries) {
        const key = keys.map((name) => entry[name]!)
        const id = key.map((value) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : String(value))).join('\u0000')
        if (restored.has(id)) continue
        restored.add(id)
        if (entry.existed) write.run(...all.map((name) => entry[name]!))
        else remove.run(...key)
      }
      db.run(`DELETE FROM ${history} WHERE block > ?`, [ancestor])
    },
  }
}

export type VersionedRows = ReturnType<typeof versionedRows>
