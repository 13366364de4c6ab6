import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { primaryKeyOf } from '../../src/spool/postgres/importSqlite.ts'

// A spool table's rows on either engine, written one way, so that a test compares the embedded
// engine's with PostgreSQL's value for value: integers (which PostgreSQL's bigint gives as text)
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
