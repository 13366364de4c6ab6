import type { SQL } from 'bun'
import { postgresDialect, type SpoolTx, type SpoolWriter, type SqlValue } from '../engine.ts'
import { notifyHead } from './heads.ts'
import type { Queryable } from './lease.ts'
import { sqliteValues, type Answer } from './reader.ts'
import { insertRows, numbered } from './store.ts'

// The spool's writer on PostgreSQL (engine.ts's SpoolWriter): the SQL both engines take, over a
// pool whose search_path is the spool's schema. Every transaction first passes the writer's
// fence (lease.ts checkFence: this instance still holds the indexer's lease, and the row stays
// share-locked until the commit), so an instance that lost the lease writes nothing, whatever it
// believes. A batch of blocks goes as inserts of many rows each; a new head is notified at commit.

export type PostgresWriterOptions = {
  /** The schema that holds the spool (a name the config checked). */
  schema: string
  /** Inside each transaction, before anything is written: throws when this instance may no longer write. */
  fence?: (tx: Queryable) => Promise<void>
}

/** The writer's statements inside one transaction (or, for reads, on the pool). */
function statementsOf(client: Queryable): SpoolTx {
  const all = async <T>(sql: string, ...params: SqlValue[]): Promise<T[]> => sqliteValues<T>((await client.unsafe(numbered(sql), params)) as Answer)
  return {
    engine: 'postgres',
    dialect: postgresDialect,
    all,
    get: async <T>(sql: string, ...params: SqlValue[]) => (await all<T>(sql, ...params))[0] ?? null,
    run: async (sql: string, ...params: SqlValue[]) => Number(((await client.unsafe(numbered(sql), params)) as { count?: number }).count ?? 0),
  }
}

export function postgresWriter(sql: SQL, { schema, fence = async () => {} }: PostgresWriterOptions): SpoolWriter {
  const pool = statementsOf(sql)
  // Each transaction's statements, by the view the work was handed.
  const clients = new WeakMap<SpoolTx, Queryable>()
  const clientOf = (tx: SpoolTx) => {
    const client = clients.get(tx)
    if (!client) throw new Error('a bulk write or a head outside one of the writer\'s transactions')
    return client
  }
  let turn: Promise<unknown> = Promise.resolve()
  return {
    engine: 'postgres',
    dialect: postgresDialect,
    all: pool.all,
    get: pool.get,
    transaction: <T>(work: (tx: SpoolTx) => Promise<T>): Promise<T> => {
      const done = turn.then(() =>
        sql.begin(async (client) => {
          await fence(client)
          const tx = statementsOf(client)
          clients.set(tx, client)
          return work(tx)
        }),
      )
      turn = done.catch(() => {})
      return done as Promise<T>
    },
    insertMany: async (tx, table, columns, rows, conflict) => {
      await insertRows(clientOf(tx), schema, table, columns, rows as unknown[][], { conflict })
    },
    announce: (tx, head) => notifyHead(clientOf(tx), schema, head),
  }
}
