import { Database } from 'bun:sqlite'
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { migrate, spoolMigrations } from './migrations.ts'
import type { Migration } from '../migrations.ts'
import { SET_META_SQL } from '../meta.ts'

export type { Database }

export { SPOOL_FILE } from '../../files/spoolFile.ts'

/** Pages of write-ahead log (4 KiB each) after which the writer checkpoints it into the file. */
const WAL_CHECKPOINT_PAGES = 16_384

/**
 * Opens the spool database in WAL mode (readers never wait for the writer), applies the
 * migrations (the spool's own first, then those of the derived streams), and proves that it can
 * write. SQLite's errors about the file itself (not a database, damaged, read-only, disk full)
 * come out of here, not later: see ../storage.ts for how they are said.
 */
export function openSpool(path: string, extraMigrations: Migration[] = []): Database {
  mkdirSync(dirname(path), { recursive: true })
  const db = new Database(path, { create: true, strict: true })
  try {
    // Before anything reads the file: another connection opening it at the same moment (the
    // listener's verification writer, a reader) may hold a lock for an instant, which this waits
    // out rather than failing the start with 'database is locked'.
    db.run('PRAGMA busy_timeout = 5000')
    tuneForWriting(db)
    db.run('PRAGMA foreign_keys = OFF')
    migrate(db, [...spoolMigrations, ...extraMigrations])
    proveWritable(db)
  } catch (error) {
    db.close()
    throw error
  }
  return db
}

/**
 * How the spool's writer uses SQLite: WAL mode (readers never wait for the writer), commits
 * without an fsync, a large page cache and rare checkpoints. The write path's bench gives its
 * plain insert loop the same, so that the two differ only in what they write.
 */
export function tuneForWriting(db: Database): void {
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  // The transactions' hash index takes its rows in random order: a page cache that holds it
  // keeps the writes from reading pages back from disk (64 MiB at most, taken as it is used).
  db.run('PRAGMA cache_size = -65536')
  // Checkpoints every 64 MiB of log rather than SQLite's 4: each commit writes the index pages it
  // touched into the log again, and a checkpoint copies only the last copy of each page, with two
  // fsyncs, so fewer of them write less (a tenth of a cl pass's time). The log is truncated back
  // to that size after each, and folded into the file when the writer stops (closeSpool).
  db.run(`PRAGMA wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`)
  db.run(`PRAGMA journal_size_limit = ${WAL_CHECKPOINT_PAGES * 4096}`)
}

/**
 * Writes one row. A file SQLite may only read (chmod 0444, an immutable file) still opens, and
 * the migrations of a spool that has them all write nothing; without this the first write would
 * fail later, in the follower, instead of at start.
 */
function proveWritable(db: Database): void {
  db.transaction(() => db.run(SET_META_SQL, ['opened_at', String(Date.now())])).immediate()
}

/**
 * Folds the write-ahead log into the file and closes the writer: the file on disk is then the
 * whole spool, and the next start reads no log (the log holds up to 64 MiB between checkpoints).
 * A fold that fails (no room left, a reader in the way for longer than the busy timeout) leaves
 * the log as it is, whole, for the next start to read.
 */
export function closeSpool(db: Database): void {
  try {
    db.run('PRAGMA wal_checkpoint(TRUNCATE)')
  } catch {
    // Nothing is lost: what the log holds is committed, and the next connection reads it.
  }
  db.close()
}

/** A connection for answering requests: never writes, never waits long. */
export function openReader(path: string): Database {
  const db = new Database(path, { readonly: true, strict: true })
  db.run('PRAGMA busy_timeout = 2000')
  db.run('PRAGMA query_only = ON')
  return db
}
