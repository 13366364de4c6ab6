import { SET_META_SQL } from '../db.ts'
import type { BlockBundle } from '../fetchBlocks.ts'
import { quantity } from '../../eth/quantity.ts'
import { BATCH_COLUMNS, BATCH_CONFLICTS, batchRows, EXTEND_GAP_SQL, NEW_GAP_SQL, rollbackStatements, type BatchTable, type RowSink, type SpoolValue } from '../store.ts'
import { notifyHead } from './heads.ts'
import type { Queryable } from './lease.ts'

// The spool's write path on PostgreSQL (docs/spool.md): the same rows as the embedded engine's
// (store.ts batchRows, the one rule for how a block becomes rows; rollbackStatements, the one
// list of what a reorganisation takes back), sent as batch inserts of many rows, inside the
// caller's transaction, after the writer's fence. Each moves the cursor and tells the readers the
// new head when the transaction commits (heads.ts).

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

/**
 * Writes a run of consecutive blocks and moves the cursor to the last of them, inside `tx` (the
 * caller's transaction, which has checked the writer's fence): all of the batch or, once the
 * transaction is rolled back, none of it. Gives the number of logs.
 */
export async function writeBatchPostgres(tx: Queryable, schema: string, bundles: BlockBundle[]): Promise<number> {
  const rows = Object.fromEntries(Object.keys(BATCH_COLUMNS).map((table) => [table, [] as SpoolValue[][]])) as Record<BatchTable, SpoolValue[][]>
  const sink = Object.fromEntries(
    Object.keys(BATCH_COLUMNS).map((table) => [
      table,
      (...values: SpoolValue[]) => {
        rows[table as BatchTable].push(values)
      },
    ]),
  ) as RowSink
  const logs = batchRows(bundles, sink)
  for (const table of Object.keys(BATCH_COLUMNS) as BatchTable[]) {
    await insertRows(tx, schema, table, BATCH_COLUMNS[table], rows[table], { conflict: BATCH_CONFLICTS[table] })
  }
  await moveCursor(tx, schema, quantity(bundles.at(-1)!.block.number))
  return logs
}

/** In `schema`'s tables: `sql` with its table names qualified by the schema. */
const inSchema = (schema: string, sql: string) => sql.replace(/\b(FROM|INTO|UPDATE) ([a-z_]+)/g, (_, verb: string, table: string) => `${verb} "${schema}".${table}`)

const setMeta = (tx: Queryable, schema: string, key: string, value: string) => tx.unsafe(numbered(inSchema(schema, SET_META_SQL)), [key, value])

/** The cursor moved to `head`, its time, and the new head told to the listeners when `tx` commits. */
async function moveCursor(tx: Queryable, schema: string, head: number): Promise<void> {
  await setMeta(tx, schema, 'cursor', String(head))
  await setMeta(tx, schema, 'updated_at', String(Date.now()))
  await notifyHead(tx, schema, head)
}

/** Deletes every row above `ancestor` and moves the cursor back to it, inside `tx`. */
export async function rollbackToPostgres(tx: Queryable, schema: string, ancestor: number): Promise<void> {
  for (const [sql, parameters] of rollbackStatements(ancestor)) await tx.unsafe(numbered(inSchema(schema, sql)), parameters)
  await moveCursor(tx, schema, ancestor)
}

/** Records blocks `from` to `to` as a hole the node had lost, and moves the cursor past it, inside `tx`. */
export async function recordGapPostgres(tx: Queryable, schema: string, from: number, to: number): Promise<void> {
  const extended = (await tx.unsafe(`${numbered(inSchema(schema, EXTEND_GAP_SQL))} RETURNING from_block`, [to, from - 1])) as unknown[]
  if (extended.length === 0) await tx.unsafe(numbered(inSchema(schema, NEW_GAP_SQL)), [from, to, Date.now()])
  await moveCursor(tx, schema, to)
}
