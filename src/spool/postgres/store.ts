import type { Queryable } from './lease.ts'

// Bulk inserts on PostgreSQL for the copy of an embedded spool (importSqlite.ts), many rows a
// statement; the writer queues its own (writer.ts).

/** The most parameters one INSERT carries (PostgreSQL's protocol allows 65,535). */
export const MAX_PARAMETERS = 60_000

/** `?` placeholders as PostgreSQL's numbered ones: the embedded engine's SQL, unchanged otherwise. */
export function numbered(sql: string): string {
  let at = 0
  return sql.replace(/\?/g, () => `$${++at}`)
}

/**
 * Inserts `rows` (each its values in `columns`'s order) into `schema`.`table`, as many rows an
 * INSERT as fit under `maxParameters`; `conflict` is an ON CONFLICT clause. `onBatch` is told
 * each batch's rows once written.
 */
export async function insertRows(
  tx: Queryable,
  schema: string,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
  options: { conflict?: string; maxParameters?: number; onBatch?: (rows: number) => void } = {},
): Promise<void> {
  const { conflict = '', maxParameters = MAX_PARAMETERS, onBatch } = options
  const perInsert = Math.max(1, Math.floor(maxParameters / columns.length))
  for (let start = 0; start < rows.length; start += perInsert) {
    const batch = rows.slice(start, start + perInsert)
    const parameters: unknown[] = []
    const values = batch.map((row) => {
      const at = parameters.length
      for (const value of row) parameters.push(value)
      return `(${row.map((_, index) => `$${at + index + 1}`).join(', ')})`
    })
    await tx.unsafe(`INSERT INTO "${schema}".${table} (${columns.join(', ')}) VALUES ${values.join(', ')} ${conflict}`, parameters)
    onBatch?.(batch.length)
  }
}
