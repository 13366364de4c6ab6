// The one interface every reader and writer of the spool goes through, whichever engine holds it:
// the embedded SQLite file (sqlite/), or PostgreSQL (postgres/), each engine in its own folder
// with its own migrations. A query is written once, in the SQL
// both engines take: `?` placeholders, camelCase aliases in double quotes, integer sums cast
// AS BIGINT, no engine's own functions. Rows come back the same from both: integers as numbers,
// bytes as Uint8Array, text as strings, truth as 1 or 0.

/** What a statement binds: text, integers, bytes, null. */
export type SqlValue = string | number | bigint | Uint8Array | null

/** `count` placeholders, for a list of values (`IN (...)`, a row of VALUES). */
export const marks = (count: number) => Array.from({ length: count }, () => '?').join(', ')

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

/** The reads both the readers and the writer make. */
export type Queries = Pick<SpoolDb, 'engine' | 'dialect' | 'all' | 'get'>

/**
 * The spool's writer (the follower, and the derived streams' passes and rollbacks) inside one of
 * its transactions, whichever engine holds the spool. Its statements are written in the same SQL
 * as the readers' (an upsert is `ON CONFLICT`, never SQLite's `OR REPLACE`), so that a stream is
 * written once for both.
 */
export interface SpoolTx extends Queries {
  /** Runs `sql`; gives how many rows it changed. */
  run(sql: string, ...params: SqlValue[]): Promise<number>
  /**
   * Runs `sql` whose outcome nothing waits for (an insert of a derived row): PostgreSQL sends it
   * behind the others without a round trip of its own; every read after it, and the commit, wait
   * for it, and its failure fails the transaction. The embedded engine runs it at once.
   */
  queue(sql: string, ...params: SqlValue[]): void
  /**
   * Queues the insert of `rows` (`into`: `INSERT INTO table (columns)`; `then`: an ON CONFLICT
   * clause), the engine's fastest way: a compiled statement a row on the embedded engine, many
   * rows a statement on PostgreSQL.
   */
  queueRows(into: string, rows: readonly SqlValue[][], then?: string): void
}

/**
 * The writer's connection. Outside a transaction it only reads; every write goes in
 * `transaction`, which lands whole or not at all, and which on PostgreSQL first checks that this
 * instance still holds the writer's lease (postgres/writer.ts). The writer's transactions take
 * turns: a stream's pass never interleaves with a batch of blocks.
 */
export interface SpoolWriter extends Queries {
  transaction<T>(work: (tx: SpoolTx) => Promise<T>): Promise<T>
  /** Inside `tx`: the spool's new head, told to the instances that read it elsewhere once `tx` commits (nothing to tell on the embedded engine). */
  announce(tx: SpoolTx, head: number): Promise<void>
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
  /**
   * `walk` (a SELECT that one index serves in `order`) as a side of a UNION whose page ends at
   * `rows` rows: SQLite merges a UNION's sides as they come and stops at the page's end, so the
   * walk stays as it is; PostgreSQL gathers every side whole before it orders them (every
   * transaction of an address), so each side stops at the rows the page can need.
   */
  unionSide: (walk: string, order: string, rows: number) => string
}

/**
 * Runs each `work` handed to it after the one before has ended (whether it failed or not): the
 * writer's transactions, and the follower's work that may not overlap another.
 */
export function takingTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let turn: Promise<unknown> = Promise.resolve()
  return <T>(work: () => Promise<T>): Promise<T> => {
    const done = turn.then(work)
    turn = done.catch(() => {})
    return done
  }
}
