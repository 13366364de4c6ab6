import type { Hex } from 'viem'
import { firstLine, UnavailableError } from '../../errors.ts'
import { hex } from '../../eth/bytes.ts'
import type { SpoolDb, SqlValue } from '../../spool/engine.ts'
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
 * The exchange's queries over the spool's read-only view (src/spool/engine.ts), whichever engine
 * holds it. A query that cannot run yet (no such table: the streams never ran) fails as
 * IndexNotReadyError, and is tried again on the next request rather than remembered as broken.
 */
export class IndexReader {
  constructor(private readonly db: SpoolDb) {}

  all<Row>(sql: string, ...params: SqlValue[]): Promise<Row[]> {
    return this.guard(() => this.db.all<Row>(sql, ...params))
  }

  get<Row>(sql: string, ...params: SqlValue[]): Promise<Row | null> {
    return this.guard(() => this.db.get<Row>(sql, ...params))
  }

  /**
   * Rows of a derived table that keep their transaction's id (`tx_id`), each with that
   * transaction's hash, looked up in the spool for the whole page at once (its read API), in the
   * same snapshot as the rows: a rollback in between cannot leave a row without its hash.
   */
  allWithTxHash<Row extends { tx_id: number }>(sql: string, ...params: SqlValue[]): Promise<Array<Row & { txHash: Hex }>> {
    return this.guard(() =>
      this.db.snapshot(async (db) => {
        const rows = await db.all<Row>(sql, ...params)
        const hashes = await txHashes(
          db,
          rows.map((row) => row.tx_id),
        )
        return rows.map((row) => Object.assign(row, { txHash: hex(hashes.get(row.tx_id)!) }))
      }),
    )
  }

  /** A read of the spool's own rows through its read API (src/spool/read.ts), failing as a query does. */
  spool<T>(read: (db: SpoolDb) => Promise<T>): Promise<T> {
    return this.guard(() => read(this.db))
  }

  private async guard<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read()
    } catch (error) {
      throw new IndexNotReadyError(error)
    }
  }
}
