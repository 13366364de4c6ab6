import { FatalError } from '../../errors.ts'
import type { Queryable } from './lease.ts'

// Schema changes on PostgreSQL (docs/operating.md): applied once, in order, each in its own
// transaction, recorded by id in the configured schema's `migrations` table, like the embedded
// engine's (src/spool/sqlite/migrations.ts) but with PostgreSQL's own statements. Several instances may
// start at once: a transaction-scoped advisory lock on the schema makes them take turns, and each
// looks again inside its transaction at what is applied, so a migration runs once. The writer
// also passes its fence, so an instance that lost its lease changes nothing. An instance older
// than the schema (a migration it does not know is applied) refuses it in one line, before it
// reads or writes anything.

export type PostgresMigration = { id: string; sql: string }

/** A client that can run a transaction: Bun.sql's and the `postgres` package's `begin`. */
export type Transactional = Queryable & { begin: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> }

const rows = (answer: unknown) => answer as Array<Record<string, unknown>>

/** The ids applied to `schema`, in the order applied; none when it was never migrated. */
export async function appliedMigrations(db: Queryable, schema: string): Promise<string[]> {
  const exists = rows(await db.unsafe('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [schema, 'migrations']))
  if (exists.length === 0) return []
  return rows(await db.unsafe(`SELECT id FROM "${schema}".migrations ORDER BY applied_at, id`)).map((row) => String(row.id))
}

/** Refuses a schema that holds a migration this stack does not know: it was made by a newer one. */
export function refuseNewerSchema(applied: readonly string[], migrations: readonly PostgresMigration[], schema: string): void {
  const known = new Set(migrations.map((migration) => migration.id))
  const unknown = applied.filter((id) => !known.has(id))
  if (unknown.length > 0) {
    throw new FatalError(`the database schema "${schema}" was made by a newer stack (migration ${unknown.join(', ')} is unknown to this one): run the newer stack, or name another schema`)
  }
}

/**
 * Applies to `schema` the migrations it does not hold yet, each in a transaction of its own
 * that first calls `fence` (the writer's lease check) and takes the schema's migration lock.
 * Gives the ids this call applied.
 */
export async function migratePostgres(db: Transactional, schema: string, migrations: readonly PostgresMigration[], fence: (tx: Queryable) => Promise<void> = async () => {}): Promise<string[]> {
  refuseNewerSchema(await appliedMigrations(db, schema), migrations, schema)
  await db.begin(async (tx) => {
    await tx.unsafe('SELECT pg_advisory_xact_lock(hashtext($1))', [`stack-migrations:${schema}`])
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    await tx.unsafe(`CREATE TABLE IF NOT EXISTS "${schema}".migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())`)
  })
  const applied: string[] = []
  for (const migration of migrations) {
    const ran = await db.begin(async (tx) => {
      await fence(tx)
      await tx.unsafe('SELECT pg_advisory_xact_lock(hashtext($1))', [`stack-migrations:${schema}`])
      const done = rows(await tx.unsafe(`SELECT 1 FROM "${schema}".migrations WHERE id = $1`, [migration.id]))
      if (done.length > 0) return false
      await tx.unsafe(`SET LOCAL search_path TO "${schema}"`)
      await tx.unsafe(migration.sql)
      await tx.unsafe(`INSERT INTO "${schema}".migrations (id) VALUES ($1)`, [migration.id])
      return true
    })
    if (ran) applied.push(migration.id)
  }
  return applied
}
