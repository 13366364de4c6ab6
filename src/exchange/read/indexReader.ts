import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { Hex } from 'viem'
import { firstLine, UnavailableError } from '../../errors.ts'
import { hex } from '../../eth/bytes.ts'
import { txHashes } from '../../spool/read.ts'

/**
 * The index is not ready (a database error, the tables not there because the streams
 * never ran) answers 503 with the first line of the driver's message.
 */
export class IndexNotReadyError extends UnavailableError {
  override name = 'IndexNotReadyError'
  constructor(cause: unknown) {
    super(firstLine(cause))
  }
}

/**
 * The exchange's queries over the spool's read-only connection. Each SQL text is compiled once
 * and kept by the connection (bun:sqlite's query cache); one that cannot be compiled yet (no
 * such table) is tried again on the next request rather than remembered as broken.
 */
export class IndexReader {
  constructor(private readonly db: Database) {}

  all<Row>(sql: string, ...params: SQLQueryBindings[]): Row[] {
    return this.guard(() => this.db.query<Row, SQLQueryBindings[]>(sql).all(...params))
  }

  get<Row>(sql: string, ...params: SQLQueryBindings[]): Row | null {
    return this.guard(() => this.db.query<Row, SQLQueryBindings[]>(sql).get(...params))
  }

  /**
   * Rows of a derived table that keep their transaction's id (`tx_id`), each with that
   * transaction's hash, looked up in the spool for the whole page at once (its read API), in the
   * same read transaction as the rows: a rollback in between cannot leave a row without its hash.
   */
  allWithTxHash<Row extends { tx_id: number }>(sql: string, ...params: SQLQueryBindings[]): Array<Row & { txHash: Hex }> {
    return this.guard(() =>
      this.db.transaction(() => {
        const rows = this.db.query<Row, SQLQueryBindings[]>(sql).all(...params)
        const hashes = txHashes(this.db, rows.map((row) => row.tx_id))
        return rows.map((row) => Object.assign(row, { txHash: hex(hashes.get(row.tx_id)!) }))
      })(),
    )
  }

  /** A read of the spool's own rows through its read API (src/spool/read.ts), failing as a query does. */
  spool<T>(read: (db: Database) => T): T {
    return this.guard(() => read(this.db))
  }

  private guard<T>(read: () => T): T {
    try {
      return read()
    } catch (error) {
      throw new IndexNotReadyError(error)
    }
  }
}
