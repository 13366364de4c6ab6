// Bulk inserts on PostgreSQL, many rows a statement, which the writer queues (writer.ts); and the
// embedded engine's `?` placeholders numbered as PostgreSQL's.

/** The most parameters one INSERT carries (PostgreSQL's protocol allows 65,535). */
const MAX_PARAMETERS = 60_000

/** `?` placeholders as PostgreSQL's numbered ones: the embedded engine's SQL, unchanged otherwise. */
export function numbered(sql: string): string {
  let at = 0
  return sql.replace(/\?/g, () => `$${++at}`)
}

/**
 * `rows` (each the same number of values) as INSERTs of many rows each, as many as fit under
 * MAX_PARAMETERS: `into` is `INSERT INTO table (columns)`, `then` an ON CONFLICT clause.
 */
export function manyRowInserts(into: string, rows: readonly unknown[][], then = ''): Array<{ sql: string; parameters: unknown[]; rows: number }> {
  if (rows.length === 0) return []
  const width = rows[0]!.length
  const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS / width))
  const inserts = []
  for (let start = 0; start < rows.length; start += perInsert) {
    const batch = rows.slice(start, start + perInsert)
    const values = batch.map((_, index) => `(${Array.from({ length: width }, (_, column) => `$${index * width + column + 1}`).join(', ')})`)
    inserts.push({ sql: `${into} VALUES ${values.join(', ')} ${then}`, parameters: batch.flat(), rows: batch.length })
  }
  return inserts
}
