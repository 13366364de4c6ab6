import type { Config, DatabaseTarget } from '../config/load.ts'
import { resetStack } from '../ops/reset.ts'
import { findRunning } from '../ops/runtime.ts'
import { behind, stackStatus, statusEnv, statusText, type DatabaseProbe, type DatabaseStatus } from '../ops/status.ts'
import { PROBE_MS } from '../ops/reads.ts'
import { connectPostgres } from '../spool/postgres/connect.ts'
import { readCursor } from '../spool/postgres/heads.ts'
import { INDEXER_LEASE, leaseHolder } from '../spool/postgres/lease.ts'
import { databaseProblem, roleOf } from '../spool/postgres/problems.ts'

/** The exit code of `stack status` and `stack reset` when no stack runs on the config's data folder. */
export const NOT_RUNNING = 3

/** How long `stack reset` waits for every service to follow the chain back. */
const RESET_TIMEOUT_MS = 60_000

/**
 * `stack status [--json | --env]`: the running stack's URLs, chain, contracts and each service's
 * health and lag. 0 when every service answers, 1 when one does not, 3 when nothing runs.
 */
export async function status(config: Config, format: 'text' | 'json' | 'env'): Promise<number> {
  const found = findRunning(config.dataDir)
  if (!found.running) {
    process.stderr.write(`stack: ${found.reason}\n`)
    return NOT_RUNNING
  }
  const current = await stackStatus(found.runtime, databaseProbe(config.database.target))
  // A live process that answers on none of the ports is not this stack (its pid was reused).
  if (Object.values(current.services).every((service) => service.error !== undefined) && !current.database) {
    process.stderr.write(`stack: no stack answers on the ports ${found.runtime.pid} wrote in ${config.dataDir}\n`)
    return NOT_RUNNING
  }
  process.stdout.write(format === 'json' ? `${JSON.stringify(current)}\n` : format === 'env' ? statusEnv(current) : statusText(current))
  return current.healthy ? 0 : 1
}

/** `stack reset`: 0 once the chain is back and every service has followed, 1 when not, 3 when nothing runs. */
export async function reset(config: Config): Promise<number> {
  const found = findRunning(config.dataDir)
  if (!found.running) {
    process.stderr.write(`stack: ${found.reason}\n`)
    return NOT_RUNNING
  }
  const { resetBlock, head, seconds } = await resetStack(found.runtime, { timeoutMs: RESET_TIMEOUT_MS })
  process.stdout.write(`stack reset: the chain is back at block ${resetBlock}, right after deploy and seed; head ${head}, every service followed in ${seconds.toFixed(1)} s\n`)
  return 0
}

/**
 * The database's side of `stack status` for an instance on one: read there, over a connection of
 * its own closed at once, with the config's `target` (the runtime file names no password).
 */
export function databaseProbe(target: DatabaseTarget | null): DatabaseProbe {
  return async (runtime, head) => {
    const database = runtime.database
    if (!database) return null
    const status: DatabaseStatus = { ...database, head: null, lagBlocks: null, indexer: null }
    if (!target) return { ...status, error: 'the config names no database: run stack status with the config the instance was started with' }
    const db = connectPostgres(target.url, { schema: target.schema, max: 1, statementTimeoutMs: PROBE_MS })
    try {
      const [cursor, indexer] = await Promise.all([readCursor(db, target.schema), leaseHolder(db, target.schema, INDEXER_LEASE)])
      return { ...status, head: cursor < 0 ? null : cursor, lagBlocks: cursor < 0 ? null : behind(head, cursor), indexer }
    } catch (error) {
      return { ...status, error: databaseProblem(error, target.where, roleOf(target.url)) ?? (error instanceof Error ? error.message : String(error)) }
    } finally {
      await db.close()
    }
  }
}
