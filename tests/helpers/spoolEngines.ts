import { Database as SqliteDatabase } from 'bun:sqlite'
import { SQL } from 'bun'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseConfig } from '../../src/config/load.ts'
import { openReader, openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import type { SpoolDb, SpoolEngine, SpoolWriter } from '../../src/spool/engine.ts'
import type { BlockBundle } from '../../src/spool/fetchBlocks.ts'
import { connectPostgres } from '../../src/spool/postgres/connect.ts'
import { copySpoolToPostgres } from '../../src/spool/postgres/importSqlite.ts'
import { migratePostgres } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { postgresDb } from '../../src/spool/postgres/reader.ts'
import { postgresStreamMigrations } from '../../src/spool/postgres/streamTables.ts'
import { postgresWriter } from '../../src/spool/postgres/writer.ts'
import { writeBatch } from '../../src/spool/store.ts'
import { STREAM_CURSOR_UPSERT_SQL, type StreamDefinition } from '../../src/spool/streams.ts'
import { createStreams } from '../../src/streams.ts'
import { mirrorStreams } from './engines.ts'
import { testPostgres } from './postgres.ts'

// A spool on each engine for the tests that hold the read API to one answer on both: the same
// blocks written through each engine's own write path, read through its reader (engine.ts).

export const ENGINES: SpoolEngine[] = ['sqlite', 'postgres']

export type EngineSpool = {
  engine: SpoolEngine
  /** The reader the services use. */
  db: SpoolDb
  /** The writer the follower and the derived streams use. */
  writer: SpoolWriter
  /** Writes a run of consecutive blocks, as the follower does. */
  write: (bundles: BlockBundle[]) => Promise<void>
  /** Moves a derived stream's cursor, as its pass does at its end. */
  moveStream: (name: string, cursor: { txId: number; logIndex: number; blockNumber: number }) => Promise<void>
  /** The embedded engine's writer connection (null on PostgreSQL), for what only it has. */
  sqlite: Database | null
  close: () => Promise<void>
}

const SCHEMA = 'spool'

/** An empty spool on `engine`, migrated, with the tables of `streams`. */
export async function engineSpool(engine: SpoolEngine, prefix: string, streams: StreamDefinition[] = []): Promise<EngineSpool> {
  const migrations = streams.flatMap((stream) => stream.migrations)
  if (engine === 'sqlite') {
    const path = join(mkdtempSync(join(tmpdir(), `stack-${prefix}-`)), 'spool.db')
    const file = openSpool(path, migrations)
    const reader = openReader(path)
    return withWrites({ engine, db: sqliteDb(reader), writer: sqliteWriter(file), sqlite: file, close: async () => (reader.close(), file.close()) })
  }
  const url = await (await testPostgres()).database(prefix)
  const pool: SQL = connectPostgres(url, { schema: SCHEMA, max: 4 })
  await migratePostgres(pool, SCHEMA, [...postgresSpoolMigrations, ...postgresStreamMigrations(streams)])
  // Read as a running stack reads: through a pool of its own that keeps its statements prepared.
  const reads: SQL = connectPostgres(url, { schema: SCHEMA, max: 4, prepare: true })
  return withWrites({ engine, db: postgresDb(reads), writer: postgresWriter(pool, { schema: SCHEMA }), sqlite: null, close: async () => void (await Promise.all([reads.close(), pool.close()])) })
}

/** The spool's writes a test makes, through the engine's writer. */
function withWrites(spool: Omit<EngineSpool, 'write' | 'moveStream'>): EngineSpool {
  return {
    ...spool,
    write: async (bundles) => void (await writeBatch(spool.writer, bundles)),
    moveStream: (name, cursor) => spool.writer.transaction(async (tx) => void (await tx.run(STREAM_CURSOR_UPSERT_SQL, name, cursor.txId, cursor.logIndex, cursor.blockNumber, Date.now()))),
  }
}

/**
 * The spool at `path` as it stands now, in a file of its own beside it that no writer moves, and
 * the same in a new PostgreSQL database (the copy `stack db import` makes), with the derived
 * streams' tables made there as the embedded engine has them when `derived`: for a test that
 * asks a service over each engine at one head. `pool` reads the copy, its statements prepared as
 * a running stack's reads are, unless `prepare` is false (a test that writes through it, as the
 * indexer's unprepared pool does).
 */
export async function frozenOnBothEngines(path: string, prefix: string, { derived = false, prepare = true } = {}): Promise<{ frozen: string; file: Database; pool: SQL }> {
  const frozen = join(dirname(path), '..', `frozen-${prefix}.db`)
  const live = new SqliteDatabase(path, { readonly: true })
  live.run(`VACUUM INTO '${frozen}'`)
  live.close()
  const file = openReader(frozen)
  const url = await (await testPostgres()).database(prefix)
  const admin = new SQL(url, { max: 2 })
  try {
    await copySpoolToPostgres(file, admin, SCHEMA)
    if (derived) await mirrorStreams(file, admin, SCHEMA, createStreams(parseConfig('', null)))
  } finally {
    await admin.close()
  }
  return { frozen, file, pool: connectPostgres(url, { schema: SCHEMA, max: 8, prepare }) }
}
