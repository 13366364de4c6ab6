import type { Database } from 'bun:sqlite'
import type { SQL } from 'bun'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createRpc } from '../chain/rpc.ts'
import type { DatabaseTarget } from '../config/load.ts'
import { FatalError, NodeUnreachableError } from '../errors.ts'
import { showStatus, type Logger } from '../log.ts'
import { openReader, openSpool, SPOOL_FILE } from './sqlite/db.ts'
import { emptyHealth, publishedHealth, type SpoolHealth } from './health.ts'
import { describeCatchUp } from './progress.ts'
import { checkIdentity, SpoolIdentityError } from './identity.ts'
import { sqliteDb, sqliteWriter } from './sqlite/engine.ts'
import type { SpoolDb } from './engine.ts'
import { connectPostgres, type PostgresOptions } from './postgres/connect.ts'
import { followHeads, type HeadFollower } from './postgres/heads.ts'
import { HEARTBEATS_PER_LEASE, holdLease, INDEXER_LEASE, leaseHolder, prepareLease, type IndexerLease, type Lease, type LeaseHolder } from './postgres/lease.ts'
import { appliedMigrations, migratePostgres, refuseNewerSchema } from './postgres/migrate.ts'
import { postgresSpoolMigrations } from './postgres/migrations.ts'
import { asDatabaseError, roleOf } from './postgres/problems.ts'
import { postgresDb } from './postgres/reader.ts'
import { checkReplica, replicaWait, type ReplicaWait } from './postgres/replica.ts'
import { postgresStreamMigrations } from './postgres/streamTables.ts'
import { postgresWriter } from './postgres/writer.ts'
import type { MeterReading } from './meter.ts'
import type { Migration } from './migrations.ts'
import { asSpoolFileError, SpoolFileError } from './storage.ts'
import type { StreamDefinition } from './streams.ts'
import { openVerificationWriter, verificationWriter, type VerificationWriter } from './verified.ts'
import type { FromWorker, ToWorker, WriterDatabase, WriterSettings } from './writer.ts'

export type Spool = {
  /** Where the spool is: its file, or the database and schema. */
  path: string
  /** The services' read-only view of the spool (engine.ts), whichever engine holds it. */
  reader: SpoolDb
  /** On PostgreSQL: where, this instance's role, its place in the indexer's lease, and who holds it; null on the embedded file. */
  database: SpoolDatabase | null
  health: () => SpoolHealth
  /**
   * A number that changes whenever what the spool holds changes: a write, a rollback, a pass of a
   * derived stream. Answers read from the spool can be kept while it stays the same.
   */
  version: () => number
  /** Called with every new health object (the explorer's live stream, the exchange's lag). */
  onHealth: (listener: (health: SpoolHealth) => void) => () => void
  /** Called with what the follower did since the last reading (fetches, batches, rollbacks, errors), for the metrics. */
  onMeter: (listener: (reading: MeterReading) => void) => () => void
  /** A writer of verification records (the caller closes it): no chain data, so any instance that serves the listener writes them. */
  verifications: () => VerificationWriter
  /** Settles when the writer stops for good (another chain, a reorganisation too deep). */
  fatal: Promise<Error>
  stop: () => Promise<void>
}

export { SpoolFileError, SpoolIdentityError }

/** What an instance does with a database: write and serve (`all`), only follow the node and derive (`indexer`), or only serve (`api`). */
export type Role = 'all' | 'indexer' | 'api'
export const ROLES: readonly Role[] = ['all', 'indexer', 'api']

export type SpoolDatabase = {
  where: string
  schema: string
  role: Role
  /** This instance's place in the indexer's lease (null for the api role, and until the writer reports it). */
  lease: () => IndexerLease | null
  /** Who holds the indexer's lease now, by the database's clock. */
  holder: () => Promise<LeaseHolder | null>
  /**
   * Takes the lease `name` (the faucet's) if it is free or lapses shortly, and holds it until
   * stopped (`onLost` if another takes it over); else gives who holds it.
   */
  claim: (name: string, onLost: (error: Error) => void) => Promise<{ lease: Lease; holder: null } | { lease: null; holder: LeaseHolder | null }>
  /** The replica the api role reads, and how long it has been behind a head the primary told of; null when it reads the primary. */
  replica: { where: string; behindMs: () => number } | null
}

/** How long who holds the indexer's lease is told again without asking the database. */
const HOLDER_FRESH_MS = 1_000

/**
 * What a service's /health adds on a database (nothing on the embedded file): the instance's role,
 * the schema, and who holds the indexer's lease (null when nobody does, or the database did not
 * answer; `/health` stays a liveness probe and answers either way).
 */
export async function databaseHealth(
  spool: Spool,
): Promise<{ database?: { role: Role; schema: string; indexer: LeaseHolder | null; replica?: { where: string; behindMs: number } } }> {
  const { database } = spool
  if (!database) return {}
  const indexer = await database.holder().catch(() => null)
  const replica = database.replica ? { replica: { where: database.replica.where, behindMs: database.replica.behindMs() } } : {}
  return { database: { role: database.role, schema: database.schema, indexer, ...replica } }
}

/** What the spool reads of the config: where its file goes, the node, and its own settings. */
export type SpoolConfig = {
  dataDir: string
  database: { target: DatabaseTarget | null }
  chain: { rpc: string; ws: string | null; chainId: number }
  spool: { startBlock: number; batchBlocks: number; concurrency: number; pollMs: number; maxReorgDepth: number; onHistoryGap: 'stop' | 'record' }
}

/**
 * What the composition root hands the spool: the derived streams, in the order the writer runs
 * them (their migrations are applied at start), and the worker entry that runs the writer with
 * the same streams. A worker cannot be sent functions, so the entry builds them again from
 * `worker.data` (plain data, posted to it) and calls serveSpoolWriter (writer.ts).
 */
export type SpoolWiring = {
  streams: StreamDefinition[]
  worker: { url: string; data: unknown }
}

/** The spool's writer stopped for good; the message says why. */
export class SpoolStoppedError extends FatalError {
  override name = 'SpoolStoppedError'
}

export type StartOptions = {
  /** Start from nothing, as `stack dev` does with its new chain. */
  fresh?: boolean
  /** How often a lasting failure (a full disk, a failing stream pass) is logged again; 30 s unless a test says. */
  failureRepeatMs?: number
  /** A block the chain may be taken back to at any time (`stack dev`'s reset point); see FollowerSettings. */
  resetBlock?: number | null
  /** What this instance does with a database (docs/operating.md): write and serve, only write, or only serve. */
  role?: Role
}

/**
 * Opens the spool, on the embedded file under data/ or in the database the config names, and
 * starts its writer. A spool that cannot be used is refused before any port opens, in one line
 * that says what is wrong and what to do.
 */
export async function startSpool(config: SpoolConfig, wiring: SpoolWiring, log: Logger, options: StartOptions = {}): Promise<Spool> {
  const target = config.database.target
  return target ? startOnPostgres(config, target, wiring, log, options) : startOnFile(config, wiring, log, options)
}

/**
 * The embedded file: opens the spool under data/, migrates it (with the streams' migrations),
 * checks that the node is the chain it holds (a mismatch is refused before any port opens), and
 * starts its writer in the wiring's worker. A spool file that cannot be used (damaged, not a
 * database, read-only, on a full disk) is refused the same way, with a SpoolFileError.
 */
async function startOnFile(config: SpoolConfig, wiring: SpoolWiring, log: Logger, options: StartOptions): Promise<Spool> {
  const { fresh = false, failureRepeatMs, resetBlock = null } = options
  const path = join(config.dataDir, SPOOL_FILE)
  const writer = openForStart(
    path,
    fresh,
    wiring.streams.flatMap((stream) => stream.migrations),
  )
  try {
    await checkIdentity(sqliteWriter(writer), createRpc(config.chain.rpc, { timeoutMs: 3000 }), config.chain.chainId, path)
  } catch (error) {
    if (!(error instanceof NodeUnreachableError)) {
      writer.close()
      throw asSpoolFileError(error, path)
    }
    log.warn({ rpc: config.chain.rpc }, 'the node is not reachable yet; the spool will check its identity when it is')
  }
  writer.close()
  const reader = openOrExplain(path, () => openReader(path))
  const state = new SpoolState(config.chain.chainId)
  const worker = runWorker(wiring, writerSettings(config, path, null, { failureRepeatMs, resetBlock }), state, log)
  log.info({ path, startBlock: config.spool.startBlock, fresh }, 'spool started')
  return {
    path,
    reader: sqliteDb(reader),
    database: null,
    verifications: () => openVerificationWriter(path),
    ...state.view(),
    fatal: worker.fatal,
    stop: async () => {
      await worker.stop()
      reader.close()
      showStatus(null)
    },
  }
}

/**
 * PostgreSQL (docs/operating.md): the pool every read goes through, checked at once (a wrong URL,
 * a refused login, a missing database are said in one line before any port opens). The `all`
 * and `indexer` roles run the writer in the worker, which stands by for the indexer's lease; the
 * `api` role writes no chain data and learns of each new head, and of the indexer's health, from
 * the notifications the indexer sends at each commit (LISTEN, no polling).
 */
async function startOnPostgres(config: SpoolConfig, target: DatabaseTarget, wiring: SpoolWiring, log: Logger, options: StartOptions): Promise<Spool> {
  const { failureRepeatMs, resetBlock = null, role = 'all' } = options
  const { url, where, schema, poolSize, statementTimeoutMs, leaseMs, prepare } = target
  const pool = await connected(url, where, { schema, max: poolSize, statementTimeoutMs, prepare })
  const state = new SpoolState(config.chain.chainId)
  let reader = postgresDb(pool)
  let lease: IndexerLease | null = null
  let worker: RunningWorker | null = null
  let heads: HeadFollower | null = null
  let replica: { pool: SQL; where: string; wait: ReplicaWait } | null = null
  if (role === 'api') {
    if (target.replica) {
      const replicaPool = await connected(target.replica.url, target.replica.where, { schema, max: poolSize, statementTimeoutMs, prepare }).catch(async (error) => {
        await pool.close()
        throw error
      })
      const behind = (ms: number) => log.warn({ replica: target.replica!.where, behindMs: ms }, 'the replica is behind the primary: answers stay at the head it has replayed')
      replica = { pool: replicaPool, where: target.replica.where, wait: replicaWait(pool, replicaPool, behind) }
      reader = postgresDb(replicaPool)
    }
    try {
      await prepareSchema(pool, target, wiring.streams, log)
      if (replica) await checkReplica(pool, replica.pool, { primary: where, replica: replica.where }).catch((error) => Promise.reject(asDatabaseError(error, replica!.where, roleOf(url))))
    } catch (error) {
      await Promise.all([pool.close(), replica?.pool.close()])
      throw error
    }
    // The indexer's health as it last published it (on a replica: as far as it has replayed).
    const takeUp = async () => state.set((await publishedHealth(reader)) ?? state.health())
    // At every head the indexer tells of (and at each subscription): the replica first replays
    // as far as the primary had written, then the health is read again.
    const refresh = coalesced(async () => {
      await replica?.wait.reach()
      await takeUp()
    })
    heads = await followHeads(pool, schema, () => void refresh().catch(() => {}), () => {})
    // What the database holds now, without waiting for a replica that is behind to catch up.
    await takeUp().catch(() => {})
  } else {
    if (target.replica) log.info({ replica: target.replica.where }, 'database.replicaUrl is read by api instances only: this one writes, and reads the primary')
    worker = runWorker(wiring, writerSettings(config, where, { url, where, schema, statementTimeoutMs, leaseMs }, { failureRepeatMs, resetBlock }), state, log, (held) => (lease = held))
  }
  // Who holds the indexer's lease, asked of the database at most once a second (every /health tells it).
  let asked: { at: number; holder: Promise<LeaseHolder | null> } | null = null
  const holder = () => {
    if (!asked || performance.now() - asked.at > HOLDER_FRESH_MS) asked = { at: performance.now(), holder: leaseHolder(pool, schema, INDEXER_LEASE) }
    return asked.holder
  }
  log.info({ database: where, schema, role, ...(replica ? { replica: replica.where } : {}) }, 'spool started on PostgreSQL')
  return {
    path: `${where} (schema "${schema}")`,
    reader,
    database: {
      where,
      schema,
      role,
      lease: () => lease,
      holder,
      claim: (name, onLost) => claimLease(pool, schema, name, leaseMs, onLost),
      replica: replica && { where: replica.where, behindMs: replica.wait.behindMs },
    },
    verifications: () => verificationWriter(postgresWriter(pool, { schema })),
    ...state.view(),
    fatal: worker?.fatal ?? new Promise(() => {}),
    stop: async () => {
      await heads?.stop().catch(() => {})
      await worker?.stop()
      await Promise.all([pool.close(), replica?.pool.close()])
      showStatus(null)
    },
  }
}

/** A pool of connections to the database at `where`, checked at once: one that cannot be used is said in one line. */
async function connected(url: string, where: string, options: PostgresOptions): Promise<SQL> {
  const pool = connectPostgres(url, options)
  try {
    await pool.unsafe('SELECT 1')
  } catch (error) {
    await pool.close()
    throw asDatabaseError(error, where, roleOf(url))
  }
  return pool
}

/**
 * `work` run once at a time: a call while it runs asks for one more run after it (however many
 * calls came meanwhile), and resolves when that run ends.
 */
function coalesced(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null
  let next: Promise<void> | null = null
  const run = (): Promise<void> => {
    running = work().finally(() => (running = null))
    return running
  }
  return () => {
    if (!running) return run()
    next ??= running.catch(() => {}).then(() => {
      next = null
      return run()
    })
    return next
  }
}

/**
 * The schema as this stack's migrations leave it, for an api instance that may start before any
 * indexer: it answers as a fresh stack does (empty tables, not missing ones). A schema a newer
 * stack migrated is refused in one line. The migrations run once whoever runs them (postgres/
 * migrate.ts); a role that may not create them waits for the indexer's, saying so.
 */
async function prepareSchema(pool: SQL, { schema, where, url }: DatabaseTarget, streams: StreamDefinition[], log: Logger): Promise<void> {
  const migrations = [...postgresSpoolMigrations, ...postgresStreamMigrations(streams)]
  let applied: string[]
  try {
    applied = await appliedMigrations(pool, schema)
  } catch (error) {
    throw asDatabaseError(error, where, roleOf(url))
  }
  refuseNewerSchema(applied, migrations, schema)
  if (migrations.every((migration) => applied.includes(migration.id))) return
  try {
    await migratePostgres(pool, schema, migrations)
  } catch (error) {
    if ((error as { errno?: unknown }).errno !== '42501') throw asDatabaseError(error, where, roleOf(url))
    log.warn({ database: where, schema }, 'this role may not make the schema\'s tables: the api answers once the indexer has made them')
  }
}

/**
 * Holds the lease `name` when this instance can have it: at once when it is free; after a wait
 * when its holder has stopped renewing it (a restart right after the holder died); never while a
 * live holder renews it.
 */
async function claimLease(
  pool: SQL,
  schema: string,
  name: string,
  leaseMs: number,
  onLost: (error: Error) => void,
): Promise<{ lease: Lease; holder: null } | { lease: null; holder: LeaseHolder | null }> {
  await prepareLease(pool, schema)
  const heartbeatMs = leaseMs / HEARTBEATS_PER_LEASE
  const lease = holdLease({ db: pool, schema, name, ttlMs: leaseMs, heartbeatMs, onLost })
  const holder = await Promise.race([lease.acquired.then(() => null), Bun.sleep(500).then(() => leaseHolder(pool, schema, name))])
  if (holder === null) return { lease, holder: null }
  const lapsing = holder.heartbeatAgeMs > 2 * heartbeatMs
  // It lapses at most the lease's time after its last heartbeat; a heartbeat more to take it.
  const wait = leaseMs + 2 * heartbeatMs
  if (lapsing && (await Promise.race([lease.acquired.then(() => true), Bun.sleep(wait).then(() => false)]))) return { lease, holder: null }
  await lease.stop()
  return { lease: null, holder: await leaseHolder(pool, schema, name) }
}

/** What the worker is posted to start the writer. */
function writerSettings(config: SpoolConfig, path: string, database: WriterDatabase | null, { failureRepeatMs, resetBlock }: Pick<StartOptions, 'failureRepeatMs' | 'resetBlock'>): WriterSettings {
  const { chain, spool } = config
  return { path, rpc: chain.rpc, ws: chain.ws, chainId: chain.chainId, ...pickSpoolSettings(spool), failureRepeatMs, resetBlock, database }
}

/** The spool's health as the services see it, and the version that moves with what it holds. */
class SpoolState {
  private current: SpoolHealth
  private version = 0
  private versionOf = ''
  private readonly listeners = new Set<(health: SpoolHealth) => void>()
  readonly meters = new Set<(reading: MeterReading) => void>()

  constructor(chainId: number) {
    this.current = emptyHealth(chainId)
  }

  health(): SpoolHealth {
    return this.current
  }

  set(health: SpoolHealth): void {
    this.current = health
    const held = contentsOf(health)
    if (held !== this.versionOf) {
      this.versionOf = held
      this.version++
    }
    showCatchUp(health)
    for (const listener of this.listeners) listener(health)
  }

  view(): Pick<Spool, 'health' | 'version' | 'onHealth' | 'onMeter'> {
    return {
      health: () => this.current,
      version: () => this.version,
      onHealth: (listener) => {
        this.listeners.add(listener)
        return () => this.listeners.delete(listener)
      },
      onMeter: (listener) => {
        this.meters.add(listener)
        return () => this.meters.delete(listener)
      },
    }
  }
}

type RunningWorker = { fatal: Promise<Error>; stop: () => Promise<void> }

/** Starts the writer in the wiring's worker, and keeps `state` as the worker reports it. */
function runWorker(wiring: SpoolWiring, settings: WriterSettings, state: SpoolState, log: Logger, onLease: (lease: IndexerLease) => void = () => {}): RunningWorker {
  let reportFatal: (error: Error) => void = () => {}
  const fatal = new Promise<Error>((resolve) => (reportFatal = resolve))
  let stopped: () => void = () => {}
  const stoppedPromise = new Promise<void>((resolve) => (stopped = resolve))
  const worker = new Worker(wiring.worker.url)
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data
    switch (message.type) {
      case 'health':
        state.set(message.health)
        return
      case 'lease':
        onLease(message.lease)
        return
      case 'meter':
        for (const listener of state.meters) listener(message.reading)
        return
      case 'log':
        log[message.level]({ component: 'spool', ...message.fields }, message.message)
        return
      case 'fatal':
        log.error({ component: 'spool', error: message.message }, 'the spool stopped')
        reportFatal(new SpoolStoppedError(message.message))
        return
      case 'stopped':
        stopped()
        return
    }
  }
  worker.onerror = (event) => {
    log.error({ component: 'spool', error: event.message }, 'the spool worker failed')
    reportFatal(new Error(`the spool worker failed: ${event.message}`))
  }
  worker.postMessage({ type: 'start', settings, streamsFrom: wiring.worker.data } satisfies ToWorker)
  return {
    fatal,
    stop: async () => {
      worker.postMessage({ type: 'stop' } satisfies ToWorker)
      const timeout = Bun.sleep(5000).then(() => 'timeout' as const)
      if ((await Promise.race([stoppedPromise, timeout])) === 'timeout') log.warn({ component: 'spool' }, 'the spool writer did not stop in time')
      worker.terminate()
    },
  }
}

/** Only the spool's own settings travel to the worker, whatever else the config's section holds. */
function pickSpoolSettings({ startBlock, batchBlocks, concurrency, pollMs, maxReorgDepth, onHistoryGap }: SpoolConfig['spool']) {
  return { startBlock, batchBlocks, concurrency, pollMs, maxReorgDepth, onHistoryGap }
}

/** Opens the writer for the checks at start (after deleting the old spool when `fresh`). */
function openForStart(path: string, fresh: boolean, migrations: Migration[]): Database {
  return openOrExplain(path, () => {
    if (fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true })
    return openSpool(path, migrations)
  })
}

/** Runs `open`, turning a failure of the file or its folder into one line for the operator. */
function openOrExplain(path: string, open: () => Database): Database {
  try {
    return open()
  } catch (error) {
    throw asSpoolFileError(error, path)
  }
}

/**
 * What the spool holds, as far as a health object tells: its head and last write, and each
 * derived stream's place and last pass that moved it.
 */
function contentsOf({ spoolHeadBlock, updatedAt, streams }: SpoolHealth): string {
  let text = `${spoolHeadBlock}@${updatedAt}`
  for (const name in streams) text += ` ${name}:${streams[name]!.cursorBlock}@${streams[name]!.updatedAt}`
  return text
}

/** A catch-up under way, as the terminal's status line (nothing when the log is not on a terminal). */
function showCatchUp(health: SpoolHealth): void {
  const { catchUp, spoolHeadBlock, nodeHeadBlock } = health
  showStatus(catchUp && nodeHeadBlock !== null ? describeCatchUp(catchUp, spoolHeadBlock ?? -1, nodeHeadBlock) : null)
}
