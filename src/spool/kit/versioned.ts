import { marks, type SpoolTx, type SqlValue } from '../engine.ts'
import type { VersionedTable } from './tables.ts'

/**
 * Per writer, the first block whose history the running pass keeps (set by runPass through
 * keepingHistoryFrom). A rollback never reaches below the deepest reorganisation the spool
 * follows, so how a row stood before an older block is never read: a pass over old blocks, as
 * in a catch-up, writes the rows and not their history. The spool records how deep the history
 * it kept goes, and never rolls back below it (follower.ts).
 */
const historyFrom = new WeakMap<SpoolTx, number>()

/** Runs `pass` keeping the history of blocks `from` and later only (the writer's passes take turns, so one is set at a time). */
export async function keepingHistoryFrom<T>(tx: SpoolTx, from: number, pass: () => Promise<T>): Promise<T> {
  const before = historyFrom.get(tx)
  historyFrom.set(tx, from)
  try {
    return await pass()
  } finally {
    if (before === undefined) historyFrom.delete(tx)
    else historyFrom.set(tx, before)
  }
}

/** The SQL of a versioned table's statements, the same on both engines: an upsert is ON CONFLICT, a history entry already there stands. */
export function versionedSql({ table, history, keys, columns }: VersionedTable) {
  const all = [...keys, ...columns]
  const byKey = keys.map((key) => `${key} = ?`).join(' AND ')
  const upsert = `ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${columns.map((column) => `${column} = excluded.${column}`).join(', ')}`
  return {
    load: `SELECT ${columns.join(', ')} FROM ${table} WHERE ${byKey}`,
    write: `INSERT INTO ${table} (${all.join(', ')}) VALUES (${marks(all.length)}) ${upsert}`,
    /** `write` as an insert of many rows: its head and its conflict clause. */
    writeInto: `INSERT INTO ${table} (${all.join(', ')})`,
    upsert,
    remove: `DELETE FROM ${table} WHERE ${byKey}`,
    // The first entry for a row and block stands (ON CONFLICT DO NOTHING, where it is queued): a
    // pass that starts inside a block finds the row as the previous pass left it, halfway through
    // that block, which is not how it stood before.
    rememberInto: `INSERT INTO ${history} (block, ${all.join(', ')}, existed)`,
    entriesAbove: `SELECT ${all.join(', ')}, existed FROM ${history} WHERE block > ? ORDER BY block`,
    forgetAbove: `DELETE FROM ${history} WHERE block > ?`,
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
export function versionedRows(tx: SpoolTx, spec: VersionedTable) {
  const { keys, columns } = spec
  const all = [...keys, ...columns]
  const nulls = columns.map(() => null)
  const sql = versionedSql(spec)
  const keptFrom = historyFrom.get(tx) ?? Number.NEGATIVE_INFINITY

  return {
    /** The current row's columns, or null when there is none. */
    load: (key: SqlValue[]) => tx.get<Record<string, unknown>>(sql.load, ...key),
    /** The current rows of `wanted` keys that exist, each with its key columns, in one query (a single-column key by IN, else an OR of each key). */
    loadMany: (wanted: ReadonlyArray<SqlValue[]>) => {
      const where = keys.length === 1 ? `${keys[0]} IN (${marks(wanted.length)})` : wanted.map(() => `(${keys.map((key) => `${key} = ?`).join(' AND ')})`).join(' OR ')
      return tx.all<Record<string, unknown>>(`SELECT ${all.join(', ')} FROM ${spec.table} WHERE ${where}`, ...wanted.flat())
    },
    /** Whether the pass keeps how rows stood before `block`. */
    keepsHistoryOf: (block: number) => block >= keptFrom,
    /** Records how rows stood before `block` changed them: their columns, or null when there was none. */
    remember: (entries: ReadonlyArray<{ key: SqlValue[]; values: SqlValue[] | null; block: number }>) =>
      tx.queueRows(
        sql.rememberInto,
        entries.map(({ key, values, block }) => [block, ...key, ...(values ?? nulls), values === null ? 0 : 1]),
        'ON CONFLICT DO NOTHING',
      ),
    /** Writes rows as they stand now: each its key and its other columns. */
    write: (rows: ReadonlyArray<{ key: SqlValue[]; values: SqlValue[] }>) => tx.queueRows(sql.writeInto, rows.map(({ key, values }) => [...key, ...values]), sql.upsert),
    /** Deletes the row. */
    remove: (key: SqlValue[]) => tx.queue(sql.remove, ...key),
    /** Puts every row changed above `ancestor` back as it stood at the end of `ancestor`, and forgets the history above it. */
    rollback: async (ancestor: number) => {
      const entries = await tx.all<Record<string, SqlValue>>(sql.entriesAbove, ancestor)
      const restored = new Set<string>()
      for (const entry of entries) {
        const key = keys.map((name) => entry[name]!)
        const id = keyText(key)
        if (restored.has(id)) continue
        restored.add(id)
        if (entry.existed) tx.queue(sql.write, ...all.map((name) => entry[name]!))
        else tx.queue(sql.remove, ...key)
      }
      await tx.run(sql.forgetAbove, ancestor)
    },
  }
}

export type VersionedRows = ReturnType<typeof versionedRows>

/** A key as text that two engines' values of it share: bytes as hex, numbers and text as they print. */
export const keyText = (key: readonly SqlValue[]) => key.map((value) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : String(value))).join('\u0000')
