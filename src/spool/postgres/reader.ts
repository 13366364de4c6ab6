import type { SQL } from 'bun'
import type { Dialect, SpoolDb, SqlValue } from '../engine.ts'
import { numbered } from './store.ts'

// The spool's reader on PostgreSQL (engine.ts's interface): the SQL both engines take, its `?`
// placeholders numbered, sent over Bun.sql's pool to the schema the client's search_path names,
// and its rows made what the embedded engine gives, by each column's type as the server says it:
// bigint and numeric (counts, sums) as numbers, booleans as 1 or 0, bytea as a plain Uint8Array.

// PostgreSQL's planner weighs an index by the table's statistics; it takes no hint.
export const postgresDialect: Dialect = {
  bytes: (digits) => `'\\x${digits}'::bytea`,
  unindexed: (column) => column,
  jsonText: (column, key) => `(${column}::json -> '${key}')::text`,
  joined: (column) => `string_agg(${column}, ',')`,
  leastBytes: (column) => `(array_agg(${column} ORDER BY ${column}))[1]`,
  unionSide: (walk, order, rows) => `SELECT * FROM (${walk} ORDER BY ${order} LIMIT ${Math.trunc(rows)}) AS side`,
}

/** PostgreSQL's type ids (pg_type.oid) of the columns turned into the embedded engine's values. */
const INT8 = 20
const NUMERIC = 1700
const BOOL = 16
const BYTEA = 17

type Column = { name: string; type: number }
export type Answer = Array<Record<string, unknown>> & { columns?: Column[] }

const asNumber = (value: unknown) => (value === null ? null : Number(value))
const asBit = (value: unknown) => (value === null ? null : value ? 1 : 0)
// A copy, not a view of the Buffer's memory: asking a Buffer for its ArrayBuffer makes one for
// each value, which cost a page of rows more than copying its few bytes.
const asBytes = (value: unknown) => (value instanceof Uint8Array ? new Uint8Array(value) : value)

const CONVERT: Record<number, (value: unknown) => unknown> = { [INT8]: asNumber, [NUMERIC]: asNumber, [BOOL]: asBit, [BYTEA]: asBytes }

/** The rows of a PostgreSQL answer with the embedded engine's values. */
export function sqliteValues<T>(answer: Answer): T[] {
  const converted = (answer.columns ?? []).flatMap((column) => (CONVERT[column.type] ? [[column.name, CONVERT[column.type]!] as const] : []))
  if (converted.length === 0) return answer as T[]
  for (const row of answer) for (const [name, convert] of converted) row[name] = convert(row[name])
  return answer as T[]
}

type Client = Pick<SQL, 'unsafe'>

/** A reader over `sql`, a client whose search_path is the spool's schema. */
export function postgresDb(sql: SQL): SpoolDb {
  return over(sql, (read) =>
    sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', (tx) => {
      // A snapshot asked for inside this one is this one.
      const inSnapshot: SpoolDb = over(tx, (inner) => inner(inSnapshot))
      return read(inSnapshot)
    }),
  )
}

/** The reader over one client (the pool, or a snapshot's transaction); `snapshot` runs a read in one. */
function over(client: Client, snapshot: <T>(read: (db: SpoolDb) => Promise<T>) => Promise<T>): SpoolDb {
  const all = async <T>(query: string, ...params: SqlValue[]): Promise<T[]> => sqliteValues<T>((await client.unsafe(numbered(query), params)) as Answer)
  return {
    engine: 'postgres',
    dialect: postgresDialect,
    all,
    get: async <T>(query: string, ...params: SqlValue[]) => (await all<T>(query, ...params))[0] ?? null,
    snapshot,
  }
}
