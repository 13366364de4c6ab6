import { Database as SqliteDatabase } from 'bun:sqlite'
import { SQL } from 'bun'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { openReader, openSpool, type Database } from '../../src/spool/db.ts'
import { sqliteDb, type SpoolDb, type SpoolEngine } from '../../src/spool/engine.ts'
import type { BlockBundle } from '../../src/spool/fetchBlocks.ts'
import { connectPostgres } from '../../src/spool/postgres/connect.ts'
import { copySpoolToPostgres } from '../../src/spool/postgres/importSqlite.ts'
import { migratePostgres } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { postgresDb } from '../../src/spool/postgres/reader.ts'
import { numbered, writeBatchPostgres } from '../../src/spool/postgres/store.ts'
import { prepare, writeBatch } from '../../src/spool/store.ts'
import { STREAM_CURSOR_UPSERT_SQL } from '../../src/spool/streams.ts'
import { derivedTables, mirrorTables } from './engines.ts'
import { testPostgres } from './postgres.ts'

// A spool on each engine for the tests that hold the read API to one answer on both: the same
// blocks written through each engine's own write path, read through its reader (engine.ts).

export const ENGINES: SpoolEngine[] = ['sqlite', 'postgres']

export type EngineSpool = {
  engine: SpoolEngine
  /** The reader the services use. */
  db: SpoolDb
  /** Writes a run of consecutive blocks, as the follower does. */
  write: (bundles: BlockBundle[]) => Promise<void>
  /** Moves a derived stream's cursor, as its pass does at its end. */
  moveStream: (name: string, cursor: { txId: number; logIndex: number; blockNumber: number }) => Promise<void>
  /** The embedded engine's writer connection (null on PostgreSQL), for what only it has. */
  sqlite: Database | null
  close: () => Promise<void>
}

const SCHEMA = 'spool'

/** An empty spool on `engine`, migrated. */
export async function engineSpool(engine: SpoolEngine, prefix: string): Promise<EngineSpool> {
  if (engine === 'sqlite') {
    const path = join(mkdtempSync(join(tmpdir(), `stack-${prefix}-`)), 'spool.db')
    const writer = openSpool(path)
    const reader = openReader(path)
    return {
      engine,
      db: sqliteDb(reader),
      write: async (bundles) => void writeBatch(writer, prepare(writer), bundles),
      moveStream: async (name, cursor) => void writer.run(STREAM_CURSOR_UPSERT_SQL, [name, cursor.txId, cursor.logIndex, cursor.blockNumber, Date.now()]),
      sqlite: writer,
      close: async () => {
        reader.close()
        writer.close()
      },
    }
  }
  const url = await (await testPostgres()).database(prefix)
  const pool: SQL = connectPostgres(url, { schema: SCHEMA, max: 4 })
  await migratePostgres(pool, SCHEMA, postgresSpoolMigrations)
  return {
    engine,
    db: postgresDb(pool),
    write: async (bundles) => void (await pool.begin((tx) => writeBatchPostgres(tx, SCHEMA, bundles))),
    moveStream: async (name, cursor) => void (await pool.unsafe(numbered(STREAM_CURSOR_UPSERT_SQL), [name, cursor.txId, cursor.logIndex, cursor.blockNumber, Date.now()])),
    sqlite: null,
    close: () => pool.close(),
  }
}

/**
 * The spool at `path` as it stands now, in a file of its own beside it that no writer moves, and
 * the same in a new PostgreSQL database (the copy `stack db import` makes), with the derived
 * streams' tables made there as the embedded engine has them when `derived`: for a test that
 * asks a service over each engine at one head. `pool` reads the copy.
 */
export async function frozenOnBothEngines(path: string, prefix: string, { derived = false } = {}): Promise<{ frozen: string; file: Database; pool: SQL }> {
  const frozen = join(dirname(path), '..', `frozen-${prefix}.db`)
  const live = new SqliteDatabase(path, { readonly: true })
  live.run(`VACUUM INTO '${frozen}'`)
  live.close()
  const file = openReader(frozen)
  const url = await (await testPostgres()).database(prefix)
  const admin = new SQL(url, { max: 2 })
  try {
    await copySpoolToPostgres(file, admin, SCHEMA)
    if (derived) await mirrorTables(file, admin, SCHEMA, derivedTables(file))
  } finally {
    await admin.close()
  }
  return { frozen, file, pool: connectPostgres(url, { schema: SCHEMA, max: 8 }) }
}
