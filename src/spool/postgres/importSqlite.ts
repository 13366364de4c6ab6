import type { SQL } from 'bun'
import type { Database } from 'bun:sqlite'
import { FatalError } from '../../errors.ts'
import type { Queryable } from './lease.ts'
import { migratePostgres } from './migrate.ts'
import { postgresSpoolMigrations } from './migrations.ts'

// The copy of an embedded spool into an empty PostgreSQL schema (docs/operating.md): the chain
// as the spool holds it, so that a switch of engines never reads the chain again from a node
// that keeps only a short history. Every table of the chain's is copied row for row, in one
// transaction, through PostgreSQL's COPY (its text format, a few thousand rows a chunk): a copy
// that is stopped part way leaves the schema empty, and the next starts afresh. The derived
// streams' cursors are not copied: their tables are derived again from the copied logs (nothing
// is lost, the spool holds every log), as after a migration that restarts a stream.

/** The spool's tables the copy carries, in the order it copies them. */
export const COPIED_TABLES = ['meta', 'blocks', 'minis', 'txs', 'logs', 'traces', 'history_gaps', 'contract_creations', 'internal_calls', 'verified_contracts', 'verified_proxies'] as const

export type CopiedTable = (typeof COPIED_TABLES)[number]

/** How far the copy is: the table it is copying, its rows so far and its total. */
export type CopyProgress = { table: CopiedTable; copied: number; total: number }

export type CopyOptions = {
  /** Called after each chunk of rows. */
  onProgress?: (progress: CopyProgress) => void
  /** The writer's lease check, inside the copy's transaction (lease.ts checkFence). */
  fence?: (tx: Queryable) => Promise<void>
  /** The most rows a chunk sends (fewer when their text passes a million characters). */
  chunkRows?: number
}

const CHUNK_ROWS = 5000
const CHUNK_CHARACTERS = 1 << 20

/** What COPY's text format takes for the characters a text value may hold that end a value or a row. */
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

/**
 * A value as COPY's text format writes it: `\N` for null, bytes as bytea's hex (its backslash
 * doubled), text with its backslashes, tabs and line ends escaped, numbers as they are.
 */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N'
  if (value instanceof Uint8Array) return `\\\\x${Buffer.from(value).toString('hex')}`
  if (typeof value === 'string') return value.replace(/[\\\n\r\t]/g, (character) => COPY_ESCAPES[character]!)
  return String(value)
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
export async function copySpoolToPostgres(sqlite: Database, db: SQL, schema: string, options: CopyOptions = {}): Promise<Record<CopiedTable, number>> {
  const { onProgress, fence = async () => {}, chunkRows = CHUNK_ROWS } = options
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
        const read = sqlite.query<Record<string, unknown>, []>(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${primaryKeyOf(sqlite, table).join(', ')}`)
        const copy = tx.unsafe(`COPY "${schema}".${table} (${columns.join(', ')}) FROM STDIN`)
        const stream = copy.writable().getWriter()
        // Its outcome is awaited below; a copy given up part way must not leave it unhandled.
        const stored = copy.then(
          () => null,
          (error: unknown) => error,
        )
        try {
          let lines: string[] = []
          let characters = 0
          let copied = 0
          const flush = async () => {
            await stream.write(lines.join(''))
            copied += lines.length
            lines = []
            characters = 0
            onProgress?.({ table, copied, total: totals[table] })
          }
          for (const row of read.iterate()) {
            const line = `${columns.map((column) => copyText(row[column])).join('\t')}\n`
            lines.push(line)
            characters += line.length
            if (lines.length === chunkRows || characters >= CHUNK_CHARACTERS) await flush()
          }
          if (lines.length > 0) await flush()
          await stream.close()
        } catch (error) {
          await stream.abort(error).catch(() => {})
          await stored
          throw error
        }
        const failed = await stored
        if (failed) throw failed
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
