import type { SQL } from 'bun'
import { takingTurns, type SpoolTx, type SpoolWriter, type SqlValue } from '../engine.ts'
import { notifyHead } from './heads.ts'
import type { Queryable } from './lease.ts'
import { postgresDialect, sqliteValues, type Answer } from './reader.ts'
import { manyRowInserts, numbered } from './store.ts'

// The spool's writer on PostgreSQL (engine.ts's SpoolWriter): the SQL both engines take, over a
// pool whose search_path is the spool's schema. Every transaction first passes the writer's
// fence (lease.ts checkFence: this instance still holds the indexer's lease, and the row stays
// share-locked until the commit), so an instance that lost the lease writes nothing, whatever it
// believes. Rows queued together (a batch of blocks, a pass's writes) go as inserts of many rows
// each; a new head is notified at commit.

export type PostgresWriterOptions = {
  /** The schema that holds the spool (a name the config checked). */
  schema: string
  /** Inside each transaction, before anything is written: throws when this instance may no longer write. */
  fence?: (tx: Queryable) => Promise<void>
}

/** The writer's statements inside one transaction (or, for reads, on the pool), and what waits for those queued. */
function statementsOf(client: Queryable): SpoolTx & { settled: () => Promise<void> } {
  let queued: Array<Promise<unknown>> = []
  // Statements queued go out behind one another on the transaction's connection; a read, a run or
  // the commit waits for them first, so that it sees their rows and their failure fails it.
  const settled = async () => {
    while (queued.length > 0) {
      const waiting = queued
      queued = []
      await Promise.all(waiting)
    }
  }
  const send = async (sql: string, params: SqlValue[]) => {
    await settled()
    return client.unsafe(numbered(sql), params)
  }
  const all = async <T>(sql: string, ...params: SqlValue[]): Promise<T[]> => sqliteValues<T>((await send(sql, params)) as Answer)
  return {
    engine: 'postgres',
    dialect: postgresDialect,
    all,
    get: async <T>(sql: string, ...params: SqlValue[]) => (await all<T>(sql, ...params))[0] ?? null,
    run: async (sql: string, ...params: SqlValue[]) => Number(((await send(sql, params)) as { count?: number }).count ?? 0),
    queue: (sql: string, ...params: SqlValue[]) => {
      const sent = client.unsafe(numbered(sql), params)
      // Its failure is the transaction's, said by the next wait; never an unhandled rejection meanwhile.
      sent.catch(() => {})
      queued.push(sent)
    },
    queueRows: (into, rows, then = '') => {
      for (const insert of manyRowInserts(into, rows, then)) {
        const sent = client.unsafe(insert.sql, insert.parameters)
        sent.catch(() => {})
        queued.push(sent)
      }
    },
    settled,
  }
}

export function postgresWriter(sql: SQL, { schema, fence = async () => {} }: PostgresWriterOptions): SpoolWriter {
  const pool = statementsOf(sql)
  // Each transaction's statements, by the view the work was handed.
  const clients = new WeakMap<SpoolTx, Queryable>()
  const clientOf = (tx: SpoolTx) => {
    const client = clients.get(tx)
    if (!client) throw new Error('a head told outside one of the writer\'s transactions')
    return client
  }
  const inTurn = takingTurns()
  return {
    engine: 'postgres',
    dialect: postgresDialect,
    all: pool.all,
    get: pool.get,
    transaction: <T>(work: (tx: SpoolTx) => Promise<T>): Promise<T> =>
      inTurn(
        () =>
          sql.begin(async (client) => {
            await fence(client)
            const tx = statementsOf(client)
            clients.set(tx, client)
            const result = await work(tx)
            await tx.settled()
            return result
          }) as Promise<T>,
      ),
    announce: (tx, head) => notifyHead(clientOf(tx), schema, head),
  }
}
