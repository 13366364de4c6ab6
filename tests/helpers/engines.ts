import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { tableNames } from '../../src/spool/kit/tables.ts'
import { primaryKeyOf } from '../../src/spool/postgres/importSqlite.ts'
import { migratePostgres } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { manyRowInserts } from '../../src/spool/postgres/store.ts'
import { postgresStreamMigrations } from '../../src/spool/postgres/streamTables.ts'
import type { StreamDefinition } from '../../src/spool/streams.ts'

// A spool table's rows on either engine, written one way, so that a test compares the embedded
// engine's with PostgreSQL's value for value: integers (which PostgreSQL's bigint gives as text)
// as decimal text, bytes as hex, in the order of the table's primary key. And the derived
// streams' rows of an embedded spool copied into PostgreSQL, for a test that reads them there.

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

/** Inserts `rows` (each its values in `columns`'s order) into `schema`.`table`, many rows a statement. */
export async function insertRows(db: SQL, schema: string, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  for (const insert of manyRowInserts(`INSERT INTO "${schema}".${table} (${columns.join(', ')})`, rows)) await db.unsafe(insert.sql, insert.parameters)
}

/**
 * Makes in `schema` the tables of `streams` as PostgreSQL has them (postgres/streamTables.ts) and
 * copies into them the rows the embedded spool's streams derived, with the streams' cursors: for a
 * test that reads every derived table through PostgreSQL without deriving there.
 */
export async function mirrorStreams(sqlite: Database, db: SQL, schema: string, streams: StreamDefinition[]): Promise<void> {
  await migratePostgres(db, schema, [...postgresSpoolMigrations, ...postgresStreamMigrations(streams)])
  for (const table of streams.flatMap((stream) => stream.tables.flatMap(tableNames))) {
    const rows = sqlite.query<Record<string, unknown>, []>(`SELECT * FROM ${table}`).all()
    if (rows.length === 0) continue
    const names = Object.keys(rows[0]!)
    await insertRows(db, schema, table, names, rows.map((row) => names.map((name) => row[name])))
  }
  const cursors = sqlite.query<Record<string, unknown>, []>('SELECT name, tx_id, log_index, block_number, updated_at FROM stream_cursors').all()
  await insertRows(db, schema, 'stream_cursors', ['name', 'tx_id', 'log_index', 'block_number', 'updated_at'], cursors.map((row) => [row.name, row.tx_id, row.log_index, row.block_number, row.updated_at]))
}
