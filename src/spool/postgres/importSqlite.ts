import type { Database } from 'bun:sqlite'
import { FatalError } from '../../errors.ts'
import type { Queryable } from './lease.ts'
import { migratePostgres, type Transactional } from './migrate.ts'
import { postgresSpoolMigrations } from './migrations.ts'
import { insertRows, MAX_PARAMETERS } from './store.ts'

// The copy of an embedded spool into an empty PostgreSQL schema (docs/operating.md): the chain
// as the spool holds it, so that a switch of engines never reads the chain again from a node
// that keeps only a short history. Every table of the chain's is copied row for row, in one
// transaction: a copy that is stopped part way leaves the schema empty, and the next starts
// afresh. The derived streams' cursors are not copied: their tables are derived again from the
// copied logs (nothing is lost, the spool holds every log), as after a migration that restarts
// a stream.

/** The spool's tables the copy carries, in the order it copies them. */
export const COPIED_TABLES = ['meta', 'blocks', 'minis', 'txs', 'logs', 'traces', 'history_gaps', 'contract_creations', 'internal_calls', 'verified_contracts', 'verified_proxies'] as const

export type CopiedTable = (typeof COPIED_TABLES)[number]

/** How far the copy is: the table it is copying, its rows so far and its total. */
export type CopyProgress = { table: CopiedTable; copied: number; total: number }

export type CopyOptions = {
  /** Called after each batch of rows. */
  onProgress?: (progress: CopyProgress) => void
  /** The writer's lease check, inside the copy's transaction (lease.ts checkFence). */
  fence?: (tx: Queryable) => Promise<void>
  /** The most parameters one INSERT carries (PostgreSQL's protocol allows 65,535). */
  maxParameters?: number
}

/** A table's columns in the embedded spool, in their order (the PostgreSQL tables have the same, tests/spool/postgresSchema.test.ts). */
function columnsOf(sqlite: Database, table: CopiedTable): string[] {
  return sqlite
    .query<{ name: string }, []>(`PRAGMA table_info(${table})`)
    .all()
    .map((column) => column.name)
}

/** A table's primary key columns in the embedded spool, the order its rows are read and written in. */
export function primaryKeyOf(sqlite: Database, table: string): string[] {
  return sqlite
    .query<{ name: string; pk: number }, []>(`PRAGMA table_info(${table})`)
    .all()
    .filter((column) => column.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((column) => column.name)
}

const rows = (answer: unknown) => answer as Array<Record<string, unknown>>

/**
 * Copies the spool `sqlite` (opened read-only is enough) into `schema`, which must hold no spool:
 * makes the schema's tables, then copies every table of COPIED_TABLES in one transaction and
 * checks each table's count against the source's, then vacuums and analyzes them. Gives the
 * rows copied by table.
 */
export async function copySpoolToPostgres(sqlite: Database, db: Transactional, schema: string, options: CopyOptions = {}): Promise<Record<CopiedTable, number>> {
  const { onProgress, fence = async () => {}, maxParameters = MAX_PARAMETERS } = options
  await migratePostgres(db, schema, postgresSpoolMigrations, fence)
  const held = rows(await db.unsafe(`SELECT (SELECT count(*) FROM "${schema}".blocks) AS blocks, (SELECT count(*) FROM "${schema}".meta) AS meta`))[0]!
  if (Number(held.blocks) > 0 || Number(held.meta) > 0) {
    throw new FatalError(`the schema "${schema}" already holds a spool (${Number(held.blocks)} blocks): copy only into an empty schema, or name another`)
  }
  // The source read as one snapshot: a writer still appending to it cannot tear the copy.
  sqlite.run('BEGIN')
  try {
    const totals = Object.fromEntries(COPIED_TABLES.map((table) => [table, sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n])) as Record<CopiedTable, number>
    await db.begin(async (tx) => {
      await fence(tx)
      for (const table of COPIED_TABLES) {
        const columns = columnsOf(sqlite, table)
        const perInsert = Math.max(1, Math.floor(maxParameters / columns.length))
        const read = sqlite.query<Record<string, unknown>, []>(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${primaryKeyOf(sqlite, table).join(', ')}`)
        let batch: unknown[][] = []
        let copied = 0
        const flush = async () => {
          await insertRows(tx, schema, table, columns, batch, { maxParameters })
          copied += batch.length
          batch = []
          onProgress?.({ table, copied, total: totals[table] })
        }
        for (const row of read.iterate()) {
          batch.push(columns.map((column) => row[column]))
          if (batch.length === perInsert) await flush()
        }
        if (batch.length > 0) await flush()
        const count = Number(rows(await tx.unsafe(`SELECT count(*) AS n FROM "${schema}".${table}`))[0]!.n)
        if (count !== totals[table]) throw new FatalError(`the copy of ${table} holds ${count} rows where the spool holds ${totals[table]}: nothing was kept`)
      }
    })
    // The planner's statistics and the visibility map of the new rows at once, not at
    // autovacuum's next round: the first answers read by index alone, with the right plans.
    for (const table of COPIED_TABLES) await db.unsafe(`VACUUM (ANALYZE) "${schema}".${table}`)
    return totals
  } finally {
    sqlite.run('ROLLBACK')
  }
}
