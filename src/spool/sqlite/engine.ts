import type { Database } from 'bun:sqlite'
import { marks, takingTurns, type Dialect, type SpoolDb, type SpoolTx, type SpoolWriter, type SqlValue } from '../engine.ts'

// The embedded engine (SQLite, through bun:sqlite) behind the spool's one interface
// (../engine.ts): its reader, its writer and the few words it spells its own way.

export const sqliteDialect: Dialect = {
  bytes: (digits) => `X'${digits}'`,
  unindexed: (column) => `+${column}`,
  jsonText: (column, key) => `json_extract(${column}, '$.${key}')`,
  joined: (column) => `group_concat(${column})`,
  leastBytes: (column) => `min(${column})`,
  unionSide: (walk) => walk,
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

/**
 * The embedded engine's writer over the writer's bun:sqlite connection. Its answers are ready at
 * once; a transaction is BEGIN IMMEDIATE to COMMIT, and waits for the one before it to end, since
 * the awaits inside one let other work of the writer's thread run in between.
 */
export function sqliteWriter(db: Database): SpoolWriter {
  const statements: SpoolTx = {
    engine: 'sqlite',
    dialect: sqliteDialect,
    all: <T>(sql: string, ...params: SqlValue[]) => Promise.resolve(db.query<T, SqlValue[]>(sql).all(...params)),
    get: <T>(sql: string, ...params: SqlValue[]) => Promise.resolve(db.query<T, SqlValue[]>(sql).get(...params)),
    run: (sql: string, ...params: SqlValue[]) => Promise.resolve(db.query<unknown, SqlValue[]>(sql).run(...params).changes),
    queue: (sql: string, ...params: SqlValue[]) => void db.query<unknown, SqlValue[]>(sql).run(...params),
    queueRows: (into, rows, then = '') => {
      if (rows.length === 0) return
      const insert = db.query<unknown, SqlValue[]>(`${into} VALUES (${marks(rows[0]!.length)}) ${then}`)
      for (const row of rows) insert.run(...row)
    },
  }
  const inTurn = takingTurns()
  return {
    engine: 'sqlite',
    dialect: sqliteDialect,
    all: statements.all,
    get: statements.get,
    transaction: <T>(work: (tx: SpoolTx) => Promise<T>): Promise<T> =>
      inTurn(async () => {
        db.run('BEGIN IMMEDIATE')
        try {
          const result = await work(statements)
          db.run('COMMIT')
          return result
        } catch (error) {
          if (db.inTransaction) db.run('ROLLBACK')
          throw error
        }
      }),
    announce: async () => {},
  }
}
