import { SQL } from 'bun'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Config } from '../config/load.ts'
import { FatalError } from '../errors.ts'
import { openReader, SPOOL_FILE } from '../spool/sqlite/db.ts'
import { copySpoolToPostgres, type CopyProgress } from '../spool/postgres/importSqlite.ts'
import { asDatabaseError, roleOf } from '../spool/postgres/problems.ts'
import { asSpoolFileError } from '../spool/storage.ts'

/** How often the copy says how far it is, at most. */
const PROGRESS_EVERY_MS = 2000

/**
 * `stack db import`: copies the embedded spool under data.dir into the empty schema of the
 * database the config names (docs/operating.md), in one transaction, saying how far it is as it
 * goes and what it copied at the end. The node keeps only a short history, so a switch of
 * engines never reads the chain again: the copy carries every block, transaction, log and call
 * tree the spool holds, and the verifications; the derived streams derive again from them.
 * A running stack may keep writing the file meanwhile: the copy reads it as it stood when it began.
 */
export async function dbImport(config: Config, say: (line: string) => void): Promise<void> {
  const target = config.database.target
  if (!target) throw new FatalError('stack db import copies the spool into PostgreSQL: name the database in database.url (or STACK_DATABASE_URL)')
  const path = join(config.dataDir, SPOOL_FILE)
  if (!existsSync(path)) throw new FatalError(`there is no spool at ${path} to copy: point data.dir at the folder of the stack whose spool to copy`)
  let sqlite
  try {
    sqlite = openReader(path)
  } catch (error) {
    throw asSpoolFileError(error, path)
  }
  const role = roleOf(target.url)
  const db = new SQL({ url: target.url, max: 2 })
  const started = performance.now()
  let saidAt = 0
  const progress = ({ table, copied, total }: CopyProgress) => {
    const now = performance.now()
    if (copied < total && now - saidAt < PROGRESS_EVERY_MS) return
    saidAt = now
    say(`${table}: ${copied.toLocaleString('en')} of ${total.toLocaleString('en')} rows`)
  }
  try {
    say(`copying ${path} into schema "${target.schema}" at ${target.where}`)
    const totals = await copySpoolToPostgres(sqlite, db, target.schema, { onProgress: progress })
    const seconds = (performance.now() - started) / 1000
    const rows = Object.values(totals).reduce((sum, count) => sum + count, 0)
    say(
      `copied ${totals.blocks.toLocaleString('en')} blocks, ${totals.txs.toLocaleString('en')} transactions and ${totals.logs.toLocaleString('en')} logs ` +
        `(${rows.toLocaleString('en')} rows) in ${seconds.toFixed(1)} s; the derived streams derive again from them when the stack starts on the database`,
    )
  } catch (error) {
    throw asDatabaseError(error, target.where, role)
  } finally {
    sqlite.close()
    await db.close()
  }
}
