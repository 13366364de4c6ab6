import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { firstLine, UnavailableError } from '../../errors.ts'

/**
 * Spec 02: the index is not ready (a database error, the tables not there because the streams
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

  private guard<T>(read: () => T): T {
    try {
      return read()
    } catch (error) {
      throw new IndexNotReadyError(error)
    }
  }
}
