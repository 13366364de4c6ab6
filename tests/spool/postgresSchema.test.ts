import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FatalError } from '../../src/errors.ts'
import { openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { checkFence, createLeaseTable, FencedError, tryAcquire } from '../../src/spool/postgres/lease.ts'
import { appliedMigrations, migratePostgres, type PostgresMigration } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { testPostgres } from '../helpers/postgres.ts'

// The spool's tables on PostgreSQL against the embedded engine's, column by column, key by key
// and index by index; and the PostgreSQL migrations run once however many instances start at
// once, refused by an older stack, and never by a writer whose lease was taken over.

/** The embedded engine's column types as PostgreSQL's. */
const TYPES: Record<string, string> = { INTEGER: 'bigint', BLOB: 'bytea', TEXT: 'text' }

type Column = { name: string; type: string; notNull: boolean }
type Table = { columns: Column[]; primaryKey: string[]; indexes: string[] }

let dir: string
let sqlite: Database
let db: SQL
let url: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stack-schema-'))
  sqlite = openSpool(join(dir, 'spool.db'))
  url = await (await testPostgres()).database('schema')
  db = new SQL(url, { max: 8 })
})
afterAll(async () => {
  sqlite?.close()
  rmSync(dir, { recursive: true, force: true })
  await db?.close()
})

function sqliteTables(): Record<string, Table> {
  const names = sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations' ORDER BY name")
    .all()
    .map((row) => row.name)
  return Object.fromEntries(
    names.map((table) => {
      const info = sqlite.query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info(${table})`).all()
      const indexes = sqlite
        .query<{ name: string; origin: string }, []>(`PRAGMA index_list(${table})`)
        .all()
        .filter((index) => index.origin === 'c')
        .map((index) => index.name)
        .sort()
      return [
        table,
        {
          // A primary key is never null, said or not (SQLite allows a null in one only by an old bug the spool never uses).
          columns: info.map((column) => ({ name: column.name, type: TYPES[column.type] ?? column.type, notNull: column.notnull === 1 || column.pk > 0 })),
          primaryKey: info.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name),
          indexes,
        },
      ]
    }),
  )
}

async function postgresTables(schema: string): Promise<Record<string, Table>> {
  const tables = (await db.unsafe("SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename <> 'migrations' ORDER BY tablename", [schema])) as Array<{ tablename: string }>
  const out: Record<string, Table> = {}
  for (const { tablename } of tables) {
    const columns = (await db.unsafe('SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position', [schema, tablename])) as Array<{ column_name: string; data_type: string; is_nullable: string }>
    const primaryKey = (await db.unsafe(
      `SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = ($1 || '.' || $2)::regclass AND i.indisprimary ORDER BY array_position(i.indkey::int2[], a.attnum)`,
      [schema, tablename],
    )) as Array<{ attname: string }>
    const indexes = (await db.unsafe(
      `SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = ($1 || '.' || $2)::regclass AND NOT i.indisprimary AND NOT i.indisunique ORDER BY c.relname`,
      [schema, tablename],
    )) as Array<{ relname: string }>
    out[tablename] = {
      columns: columns.map((column) => ({ name: column.column_name, type: column.data_type, notNull: column.is_nullable === 'NO' })),
      primaryKey: primaryKey.map((row) => row.attname),
      indexes: indexes.map((row) => row.relname),
    }
  }
  return out
}

describe('the spool on PostgreSQL', () => {
  test('holds the same tables as the embedded spool: columns in order, types, nulls, keys and indexes', async () => {
    expect(await migratePostgres(db, 'parity', postgresSpoolMigrations)).toEqual(['postgres/spool/001-core'])
    const embedded = sqliteTables()
    expect(Object.keys(embedded).length).toBeGreaterThan(10)
    expect(await postgresTables('parity')).toEqual(embedded)
  })

  test('the unique columns are unique on both', async () => {
    const uniques = (await db.unsafe(
      `SELECT t.relname AS table, a.attname AS column FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey) WHERE n.nspname = 'parity' AND i.indisunique AND NOT i.indisprimary ORDER BY 1, 2`,
    )) as Array<{ table: string; column: string }>
    const embedded = sqlite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations' ORDER BY name")
      .all()
      .flatMap(({ name }) =>
        sqlite
          .query<{ name: string; unique: number; origin: string }, []>(`PRAGMA index_list(${name})`)
          .all()
          .filter((index) => index.unique === 1 && index.origin === 'u')
          .flatMap((index) => sqlite.query<{ name: string }, []>(`PRAGMA index_info(${index.name})`).all().map((column) => ({ table: name, column: column.name }))),
      )
      .sort((a, b) => (a.table + a.column < b.table + b.column ? -1 : 1))
    expect(uniques).toEqual(embedded)
  })
})

describe('migrations on PostgreSQL', () => {
  /** A migration that fails if it runs twice (CREATE TABLE without IF NOT EXISTS). */
  const once: PostgresMigration[] = [
    { id: 'test/001-one', sql: 'CREATE TABLE one (id bigint PRIMARY KEY)' },
    { id: 'test/002-two', sql: 'CREATE TABLE two (id bigint PRIMARY KEY); INSERT INTO one VALUES (1)' },
  ]

  test('instances that start at once apply each migration once, and a later start applies nothing', async () => {
    const clients = Array.from({ length: 4 }, () => new SQL(url, { max: 2 }))
    try {
      const applied = await Promise.all(clients.map((client) => migratePostgres(client, 'racing', once)))
      expect(applied.flat().sort()).toEqual(['test/001-one', 'test/002-two'])
      expect(await migratePostgres(db, 'racing', once)).toEqual([])
      expect(await appliedMigrations(db, 'racing')).toEqual(['test/001-one', 'test/002-two'])
      expect(await db.unsafe('SELECT id FROM racing.one')).toEqual([{ id: '1' }])
    } finally {
      await Promise.all(clients.map((client) => client.close()))
    }
  })

  test('an older stack refuses a schema a newer one made, in one line, and changes nothing', async () => {
    await migratePostgres(db, 'newer', once)
    const older = once.slice(0, 1)
    const refused = await migratePostgres(db, 'newer', older).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(FatalError)
    expect((refused as Error).message).toBe('the database schema "newer" was made by a newer stack (migration test/002-two is unknown to this one): run the newer stack, or name another schema')
    expect(await appliedMigrations(db, 'newer')).toEqual(['test/001-one', 'test/002-two'])
  })

  test('a writer whose lease was taken over applies nothing', async () => {
    await db.unsafe('CREATE SCHEMA IF NOT EXISTS fenced')
    await createLeaseTable(db, 'fenced')
    const stale = (await tryAcquire(db, 'fenced', 'indexer', 'first', 0))!
    expect(await tryAcquire(db, 'fenced', 'indexer', 'second', 0)).toBe(stale + 1)
    const refused = await migratePostgres(db, 'fenced', once, (tx) => checkFence(tx, 'fenced', 'indexer', stale)).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(FencedError)
    expect(await appliedMigrations(db, 'fenced')).toEqual([])
    expect(await db.unsafe("SELECT 1 FROM pg_tables WHERE schemaname = 'fenced' AND tablename = 'one'")).toEqual([])
  })
})
