import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { COPIED_TABLES, primaryKeyOf } from '../../src/spool/postgres/importSqlite.ts'
import { insertRows } from '../../src/spool/postgres/store.ts'

// A spool table's rows on either engine, written one way, so that a test compares the embedded
// engine's with PostgreSQL's value for value (and the derived tables made on PostgreSQL as the
// embedded engine has them, for a test that reads them there): integers (which PostgreSQL's bigint gives as text)
// as decimal text, bytes as hex, in the order of the table's primary key.

const same = (value: unknown): unknown => (value instanceof Uint8Array ? `0x${Buffer.from(value).toString('hex')}` : typeof value === 'number' || typeof value === 'bigint' ? String(value) : value)
const normal = (rows: Array<Record<string, unknown>>) => rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, same(value)])))

/** A table's primary key columns in the embedded spool, comma-separated (both engines' order). */
export const primaryKey = (sqlite: Database, table: string): string => primaryKeyOf(sqlite, table).join(', ')

/** Every row of `table` in the embedded spool. */
export function sqliteRows(sqlite: Database, table: string): Array<Record<string, unknown>> {
  return normal(sqlite.query<Record<string, unknown>, []>(`SELECT * FROM ${table} ORDER BY ${primaryKey(sqlite, table)}`).all())
}

/** Every row of `table` in `schema` on PostgreSQL, ordered by the embedded table's key. */
export async function postgresRows(db: SQL, schema: string, table: string, sqlite: Database): Promise<Array<Record<string, unknown>>> {
  return normal((await db.unsafe(`SELECT * FROM "${schema}".${table} ORDER BY ${primaryKey(sqlite, table)}`)) as Array<Record<string, unknown>>)
}

/** The embedded spool's tables that are no spool table of its own: the derived streams', by name. */
export function derivedTables(sqlite: Database): string[] {
  const own = new Set<string>([...COPIED_TABLES, 'stream_cursors', 'migrations'])
  return sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((row) => row.name)
    .filter((name) => !own.has(name))
}

const POSTGRES_TYPE: Record<string, string> = { INTEGER: 'bigint', BLOB: 'bytea', TEXT: 'text', REAL: 'double precision' }

/**
 * Makes in `schema` each of `tables` as the embedded spool has it (its columns, key and indexes,
 * in PostgreSQL's types) and copies its rows, with the derived streams' cursors: for a test that
 * reads every derived table through PostgreSQL before the streams derive on it.
 */
export async function mirrorTables(sqlite: Database, db: SQL, schema: string, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const columns = sqlite.query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info(${table})`).all()
    const key = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name)
    const definitions = columns.map((column) => `${column.name} ${POSTGRES_TYPE[column.type.toUpperCase()] ?? 'text'}${column.notnull ? ' NOT NULL' : ''}`)
    await db.unsafe(`CREATE TABLE "${schema}".${table} (${definitions.join(', ')}${key.length > 0 ? `, PRIMARY KEY (${key.join(', ')})` : ''})`)
    for (const index of sqlite.query<{ sql: string | null }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table)) {
      await db.unsafe(index.sql!.replace(/ON (\w+)/, `ON "${schema}".$1`).replace(/X'([0-9a-fA-F]*)'/g, "'\\\\x$1'::bytea"))
    }
    const names = columns.map((column) => column.name)
    const rows = sqlite.query<Record<string, unknown>, []>(`SELECT * FROM ${table}`).all().map((row) => names.map((name) => row[name]))
    await insertRows(db, schema, table, names, rows)
  }
  const cursors = sqlite.query<Record<string, unknown>, []>('SELECT name, tx_id, log_index, block_number, updated_at FROM stream_cursors').all()
  await insertRows(db, schema, 'stream_cursors', ['name', 'tx_id', 'log_index', 'block_number', 'updated_at'], cursors.map((row) => [row.name, row.tx_id, row.log_index, row.block_number, row.updated_at]))
}
