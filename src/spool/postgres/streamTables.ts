import { Database } from 'bun:sqlite'
import { foldedKey } from '../kit/bound.ts'
import { tableNames, type VersionedTable } from '../kit/tables.ts'
import { migrate, spoolMigrations } from '../sqlite/migrations.ts'
import type { StreamDefinition } from '../streams.ts'
import type { PostgresMigration } from './migrate.ts'

// The derived streams' tables on PostgreSQL. A stream declares its tables once, as the embedded
// engine's migrations (its history of changes, kept for the files already out there); on
// PostgreSQL they are made as those migrations leave them, read from an in-memory SQLite database
// they are run on: the same tables, columns in the same order, keys, unique constraints and
// indexes, in PostgreSQL's types (INTEGER is bigint, BLOB bytea, TEXT text; a versioned table's
// untyped history columns take its own columns' types). CHECK constraints are left out: the
// stream that writes the rows is their only writer. A stream's tables are only ever derived from
// the spool, so when its migrations change, PostgreSQL makes them again, empty, and the stream
// derives everything anew from its first pass (as after a migration that `restarts` it).

const TYPES: Record<string, string> = { INTEGER: 'bigint', BLOB: 'bytea', TEXT: 'text', REAL: 'double precision' }

type Column = { name: string; type: string; notnull: number; pk: number }

/** A byte string literal of the embedded engine's (X'...') in PostgreSQL's spelling. */
const bytesLiteral = (sql: string) => sql.replace(/X'([0-9a-fA-F]*)'/g, "'\\x$1'::bytea")

/** The tables a stream's migrations make, by the names their CREATE TABLE statements give. */
function createdBy(stream: StreamDefinition): string[] {
  return stream.migrations.flatMap((migration) => [...migration.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map((match) => match[1]!))
}

/** One table's statements on PostgreSQL, from how the embedded engine has it. */
function tableSql(db: Database, table: string, historyOf: VersionedTable | undefined): string[] {
  const columns = db.query<Column, []>(`PRAGMA table_info(${table})`).all()
  const main = historyOf ? new Map(db.query<Column, []>(`PRAGMA table_info(${historyOf.table})`).all().map((column) => [column.name, column.type])) : null
  const typeOf = (column: Column) => {
    const declared = column.type.toUpperCase() || main?.get(column.name)?.toUpperCase() || (column.name === 'block' || column.name === 'existed' ? 'INTEGER' : '')
    const type = TYPES[declared]
    if (!type) throw new Error(`the column ${table}.${column.name} has no type PostgreSQL can take (${column.type || 'none'})`)
    return type
  }
  const key = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk)
  const parts = columns.map((column) => `${column.name} ${typeOf(column)}${column.notnull || column.pk > 0 ? ' NOT NULL' : ''}`)
  if (key.length > 0) parts.push(`PRIMARY KEY (${key.map((column) => column.name).join(', ')})`)
  const indexes = db.query<{ name: string; unique: number; origin: string }, []>(`PRAGMA index_list(${table})`).all()
  for (const index of indexes.filter((index) => index.origin === 'u')) {
    const names = db.query<{ name: string }, []>(`PRAGMA index_info(${index.name})`).all().map((column) => column.name)
    parts.push(`UNIQUE (${names.join(', ')})`)
  }
  const created = db
    .query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name")
    .all(table)
    .map((index) => `${bytesLiteral(index.sql)};`)
  return [`CREATE TABLE ${table} (${parts.join(', ')});`, ...created]
}

/**
 * The PostgreSQL migrations of `streams`: one id per migration of each stream's (so that a schema
 * made by an older stack is known, and one made by a newer stack is refused), the last of which
 * makes the stream's tables as they stand now, dropping what an older shape left, and forgets the
 * stream's cursor and folded history so that it derives everything again.
 */
export function postgresStreamMigrations(streams: readonly StreamDefinition[]): PostgresMigration[] {
  if (streams.length === 0) return []
  const db = new Database(':memory:', { strict: true })
  try {
    migrate(db, [...spoolMigrations, ...streams.flatMap((stream) => stream.migrations)])
    const present = new Set(db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => row.name))
    return streams.flatMap((stream) => {
      const versioned = new Map(stream.tables.filter((table): table is VersionedTable => table.kind === 'versioned').map((table) => [table.history, table]))
      const everMade = [...new Set([...createdBy(stream), ...stream.tables.flatMap(tableNames)])]
      const tables = everMade.filter((table) => present.has(table))
      const literal = (text: string) => `'${text.replace(/'/g, "''")}'`
      const make = [
        ...everMade.map((table) => `DROP TABLE IF EXISTS ${table};`),
        ...tables.flatMap((table) => tableSql(db, table, versioned.get(table))),
        `DELETE FROM stream_cursors WHERE name = ${literal(stream.name)};`,
        `DELETE FROM meta WHERE key = ${literal(foldedKey(stream.name))};`,
      ].join('\n')
      return stream.migrations.map((migration, index) => ({
        id: `postgres/stream/${stream.name}/${migration.id}`,
        // The tables as they stand now are made once, by the last: the ones before it only name the steps an older stack took.
        sql: index === stream.migrations.length - 1 ? make : 'SELECT 1',
      }))
    })
  } finally {
    db.close()
  }
}
