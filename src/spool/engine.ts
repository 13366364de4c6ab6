import type { Database } from 'bun:sqlite'

// The one interface every reader of the spool goes through, whichever engine holds it (the
// embedded SQLite file, or PostgreSQL: postgres/reader.ts). A query is written once, in the SQL
// both engines take: `?` placeholders, camelCase aliases in double quotes, integer sums cast
// AS BIGINT, no engine's own functions. Rows come back the same from both: integers as numbers,
// bytes as Uint8Array, text as strings, truth as 1 or 0.

/** What a statement binds: text, integers, bytes, null. */
export type SqlValue = string | number | bigint | Uint8Array | null

export type SpoolEngine = 'sqlite' | 'postgres'

/** A read-only view of the spool and its derived streams' tables. */
export interface SpoolDb {
  readonly engine: SpoolEngine
  /** The few words each engine spells its own way. */
  readonly dialect: Dialect
  /** Every row `sql` gives. */
  all<T>(sql: string, ...params: SqlValue[]): Promise<T[]>
  /** The first row `sql` gives, or null. */
  get<T>(sql: string, ...params: SqlValue[]): Promise<T | null>
  /**
   * `read`'s queries all see the spool as it stood at one moment (a read transaction), so that a
   * write or a rollback between two of them cannot show half of it. `read` awaits nothing but
   * its queries: the embedded engine's snapshot is shared by the reads that overlap it.
   */
  snapshot<T>(read: (db: SpoolDb) => Promise<T>): Promise<T>
}

/** What each engine writes its own way, for the rare query that needs it. */
export type Dialect = {
  /** A byte string literal from its hex digits (a partial index's condition must be a literal, not a parameter). */
  bytes: (hexDigits: string) => string
  /** `column` as a term no index serves: SQLite walks the index a condition names unless told not to. */
  unindexed: (column: string) => string
  /** The JSON text of `key` in the JSON object text `column` holds (null when absent). */
  jsonText: (column: string, key: string) => string
  /** A group's values of the text `column`, joined by commas. */
  joined: (column: string) => string
  /** A group's least value of the bytes `column` (PostgreSQL has no min of bytea). */
  leastBytes: (column: string) => string
}

export const sqliteDialect: Dialect = {
  bytes: (digits) => `X'${digits}'`,
  unindexed: (column) => `+${column}`,
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  joined: (column) => `group_concat(${column})`,
  leastBytes: (column) => `min(${column})`,
}
// PostgreSQL's planner weighs an index by the table's statistics; it takes no hint.
export const postgresDialect: Dialect = {
  bytes: (digits) => `'\\x${digits}'::bytea`,
  unindexed: (column) => column,
  jsonText: (column, key) => `(${column}::json -> '${key}')::text`,
  joined: (column) => `string_agg(${column}, ',')`,
  leastBytes: (column) => `(array_agg(${column} ORDER BY ${column}))[1]`,
}

/**
 * The embedded engine's reader over a bun:sqlite connection: the statements are compiled once and
 * kept (Database.query's cache), and each answer is ready as soon as it is asked for.
 */
export function sqliteDb(db: Database): SpoolDb {
  // One connection serves every request: snapshots that overlap (their reads interleave at each
  // await) share one read transaction, which ends with the last of them. Their reads await only
  // queries, which are answered at once, so it ends before the next request is even read.
  let snapshots = 0
  const reader: SpoolDb = {
    engine: 'sqlite',
    dialect: sqliteDialect,
    all: <T>(sql: string, ...params: SqlValue[]) => Promise.resolve(db.query<T, SqlValue[]>(sql).all(...params)),
    get: <T>(sql: string, ...params: SqlValue[]) => Promise.resolve(db.query<T, SqlValue[]>(sql).get(...params)),
    snapshot: async <T>(read: (db: SpoolDb) => Promise<T>): Promise<T> => {
      if (snapshots === 0) db.run('BEGIN')
      snapshots++
      try {
        return await read(reader)
      } finally {
        if (--snapshots === 0) end(db)
      }
    },
  }
  return reader
}

/** Ends a read transaction; one that cannot commit is rolled back, so the connection never stays inside it. */
function end(db: Database): void {
  try {
    db.run('COMMIT')
  } catch (error) {
    db.run('ROLLBACK')
    throw error
  }
}
