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
  /**
   * Keep each statement prepared on its connection (the config's `database.prepare`): for the
   * pools that read, whose few statements repeat; a writer's bulk inserts differ in length and
   * are sent once each, so it keeps none.
   */
  prepare?: boolean
}

/** The pool; it connects on its first query, and again on its own after a connection is lost. */
export function connectPostgres(url: string, { schema, max = 10, statementTimeoutMs = 0, idleInTransactionMs = 0, prepare = false }: PostgresOptions): SQL {
  return new SQL({
    url,
    max,
    // A prepared statement spares the server its parse of each query and the client the
    // description of its rows, and its rows come in binary: a read costs the app's core about a
    // third less. Bun keeps the last 1,024 on each connection, and prepares one again after a
    // stream's migration has made its table anew. The Bun this project installs has the fixes
    // for the prepared statements that were given another query's rows (oven-sh/bun#33665,
    // #32772); tests/spool/postgresPrepared.test.ts drives those interleavings. Behind
    // PgBouncer's transaction mode they need its max_prepared_statements (docs/operating.md).
    prepare,
    connection: {
      search_path: `"${schema}"`,
      statement_timeout: String(statementTimeoutMs),
      idle_in_transaction_session_timeout: String(idleInTransactionMs),
      // Every run planned for its own values: a plan made once for any value (PostgreSQL's
      // choice after five runs) walks a holder's transfers by the topic's index and sorts them
      // all, where an address with many is read newest first off the key (ten times slower).
      ...(prepare ? { plan_cache_mode: 'force_custom_plan' } : {}),
    },
  } as ConstructorParameters<typeof SQL>[0])
}
