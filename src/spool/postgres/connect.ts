import { SQL } from 'bun'

// A pool of connections to the spool's schema on PostgreSQL (docs/operating.md): Bun.sql's
// client with the schema as every connection's search_path, so that the SQL both engines take
// (engine.ts) names its tables without a schema, and with the statement timeout the config sets.

export type PostgresOptions = {
  /** The schema that holds the spool (a name the config checked). */
  schema: string
  /** Connections in the pool. */
  max?: number
  /** A statement running longer is cancelled by the server; 0 for none. */
  statementTimeoutMs?: number
  /**
   * A transaction that sends nothing for longer is ended by the server, its locks let go; 0 for
   * none. The writer's: a holder frozen inside a batch would otherwise keep the lease's row
   * locked, and no standby could take over.
   */
  idleInTransactionMs?: number
}

/** The pool; it connects on its first query, and again on its own after a connection is lost. */
export function connectPostgres(url: string, { schema, max = 10, statementTimeoutMs = 0, idleInTransactionMs = 0 }: PostgresOptions): SQL {
  return new SQL({
    url,
    max,
    // Server-side prepared statements are not kept, though each statement is then parsed and
    // planned anew: a transaction-mode pooler in between (PgBouncer) hands each transaction
    // another server connection; Bun.sql's cache of named statements has given one query's rows
    // to another under concurrent load (oven-sh/bun#33665, #30494); and a statement it keeps
    // fails for good once a table it reads is made again (#29484), as a stream's migration does
    // under running api instances.
    prepare: false,
    connection: { search_path: `"${schema}"`, statement_timeout: String(statementTimeoutMs), idle_in_transaction_session_timeout: String(idleInTransactionMs) },
  } as ConstructorParameters<typeof SQL>[0])
}
