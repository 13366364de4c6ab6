// The spool's writer, in a worker of its own: batch writes and stream passes never hold up the
// event loop that answers HTTP requests. The worker's entry is not here but at the composition
// root (src/spoolWorker.ts): a worker cannot be sent functions, so the entry builds the derived
// streams itself, from the data startSpool posts, and hands them to serveSpoolWriter.
import { createRpc } from '../chain/rpc.ts'
import { closeSpool, openSpool, type Database } from './sqlite/db.ts'
import { setMeta } from './meta.ts'
import { sqliteWriter } from './sqlite/engine.ts'
import type { SpoolWriter } from './engine.ts'
import { Follower, REQUEST_TIMEOUT_MS, type FollowerSettings } from './follower.ts'
import { PUBLISHED_HEALTH, type SpoolHealth } from './health.ts'
import { SpoolMeter, type MeterReading } from './meter.ts'
import { connectPostgres } from './postgres/connect.ts'
import { checkFence, HEARTBEATS_PER_LEASE, holdLease, INDEXER_LEASE, prepareLease, type IndexerLease, type Lease, type Queryable } from './postgres/lease.ts'
import { migratePostgres } from './postgres/migrate.ts'
import { postgresSpoolMigrations } from './postgres/migrations.ts'
import { databaseProblem, roleOf } from './postgres/problems.ts'
import { postgresStreamMigrations } from './postgres/streamTables.ts'
import { postgresWriter } from './postgres/writer.ts'
import { asSpoolFileError } from './storage.ts'
import type { StreamDefinition } from './streams.ts'

declare const self: Worker

/** How often the follower's observations reach the metrics. */
const METER_EVERY_MS = 1000

/** The database the writer writes when the spool is on PostgreSQL (null: the embedded file at `path`): its URL, where it is (for messages), the schema, the statement timeout, the lease's time. */
export type WriterDatabase = { url: string; where: string; schema: string; statementTimeoutMs: number; leaseMs: number }

/** The follower's settings and the node's addresses: all the worker needs, as plain data. */
export type WriterSettings = FollowerSettings & { rpc: string; ws: string | null; database: WriterDatabase | null }

/** `streamsFrom` is the wiring's data, which the worker's entry builds its streams from. */
export type ToWorker = { type: 'start'; settings: WriterSettings; streamsFrom: unknown } | { type: 'stop' }
export type FromWorker =
  | { type: 'health'; health: SpoolHealth }
  | { type: 'lease'; lease: IndexerLease }
  | { type: 'meter'; reading: MeterReading }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string }
  | { type: 'fatal'; message: string }
  | { type: 'stopped' }

/**
 * Makes this worker the spool's writer: on `start` it builds the streams with `makeStreams`,
 * opens the spool and runs the follower until `stop`. Called once, by the worker's entry.
 */
export function serveSpoolWriter(makeStreams: (data: unknown) => StreamDefinition[]): void {
  const post = (message: FromWorker) => self.postMessage(message)
  const abort = new AbortController()
  let running: Promise<void> | null = null
  self.onmessage = (event: MessageEvent<ToWorker>) => {
    const message = event.data
    if (message.type === 'start' && !running) {
      running = (async () => runWriter(message.settings, makeStreams(message.streamsFrom), post, abort.signal))().catch((error: unknown) =>
        post({ type: 'fatal', message: error instanceof Error ? error.message : String(error) }),
      )
    }
    if (message.type === 'stop') {
      abort.abort()
      void (running ?? Promise.resolve()).finally(() => post({ type: 'stopped' }))
    }
  }
}

/** How long the writer's start waits for a file another connection holds ('database is locked'). */
const OPEN_WAIT_MS = 15_000

/**
 * Opens the spool for the writer. The main thread, the listener's verification writer and the
 * readers open the same file as the worker starts; a lock one of them holds past the busy timeout
 * (a busy machine) is waited out here, the open tried again until OPEN_WAIT_MS has passed,
 * rather than stopping the stack at its start. Any other failure is said at once.
 */
async function openWhenFree(path: string, migrations: Parameters<typeof openSpool>[1]): Promise<Database> {
  const deadline = performance.now() + OPEN_WAIT_MS
  for (;;) {
    try {
      return openSpool(path, migrations)
    } catch (error) {
      const busy = String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_BUSY')
      if (!busy || performance.now() > deadline) throw error
      await Bun.sleep(100)
    }
  }
}

async function runWriter(settings: WriterSettings, streams: StreamDefinition[], post: (message: FromWorker) => void, signal: AbortSignal): Promise<void> {
  if (settings.database) return runPostgresWriter({ ...settings, database: settings.database }, streams, post, signal)
  const { path } = settings
  let db: Database
  try {
    db = await openWhenFree(path, streams.flatMap((stream) => stream.migrations))
  } catch (error) {
    // The main thread opened the same file a moment ago; whatever changed since is said in one line.
    const failure = asSpoolFileError(error, path)
    post({ type: 'fatal', message: failure instanceof Error ? failure.message : String(failure) })
    return
  }
  try {
    await follow(sqliteWriter(db), settings, streams, post, signal)
  } finally {
    closeSpool(db)
  }
}

/** Runs the follower over `writer` until `signal` aborts or it stops for good (said as `fatal`). */
async function follow(
  writer: SpoolWriter,
  settings: WriterSettings,
  streams: StreamDefinition[],
  post: (message: FromWorker) => void,
  signal: AbortSignal,
  publish: (health: SpoolHealth) => void = () => {},
): Promise<void> {
  const { rpc, ws, database: _database, ...followerSettings } = settings
  // The metrics' observations go to the main thread once a second, and once more at the end.
  const meter = new SpoolMeter()
  const postReading = () => {
    const reading = meter.drain()
    if (reading) post({ type: 'meter', reading })
  }
  const meterTimer = setInterval(postReading, METER_EVERY_MS)
  const follower = new Follower(writer, {
    ...followerSettings,
    rpc: createRpc(rpc, { timeoutMs: settings.requestTimeoutMs ?? REQUEST_TIMEOUT_MS }),
    wsUrl: ws,
    streams,
    log: (level, fields, message) => post({ type: 'log', level, fields, message }),
    onHealth: (health) => {
      post({ type: 'health', health })
      publish(health)
    },
    meter,
  })
  try {
    const health = await follower.health()
    post({ type: 'health', health })
    publish(health)
    await follower.run(signal)
  } catch (error) {
    post({ type: 'fatal', message: (error as Error).message })
  } finally {
    clearInterval(meterTimer)
    postReading()
  }
}

/**
 * The writer on PostgreSQL: the indexer. It stands by until it holds the indexer's lease
 * (postgres/lease.ts; another instance's lease lapses a few seconds after its last heartbeat),
 * then applies the migrations under it and follows the node from the cursor the database holds,
 * every transaction fenced by the lease's epoch. A lease lost (taken over while this instance was
 * paused or cut off) stops the writer for good: the fence has already refused its writes.
 */
async function runPostgresWriter(
  settings: WriterSettings & { database: WriterDatabase },
  streams: StreamDefinition[],
  post: (message: FromWorker) => void,
  signal: AbortSignal,
): Promise<void> {
  const { url, where, schema, statementTimeoutMs, leaseMs } = settings.database
  // Few connections: the writer's transactions take turns; the lease has its heartbeat. A
  // transaction left idle past the lease's time (this process frozen inside a batch) is ended by
  // the server, so that the lease's row it share-locked does not keep a standby from taking over.
  const pool = connectPostgres(url, { schema, max: 3, statementTimeoutMs, idleInTransactionMs: leaseMs })
  const lost = new AbortController()
  let lease: Lease | null = null
  const say = (level: 'info' | 'warn' | 'error', fields: Record<string, unknown>, message: string) => post({ type: 'log', level, fields: { database: where, schema, ...fields }, message })
  try {
    await prepareLease(pool, schema)
    lease = holdLease({
      db: pool,
      schema,
      name: INDEXER_LEASE,
      ttlMs: leaseMs,
      heartbeatMs: leaseMs / HEARTBEATS_PER_LEASE,
      onLost: (error) => {
        post({ type: 'lease', lease: { holder: lease!.holder, epoch: null, standby: false } })
        post({ type: 'fatal', message: error.message })
        lost.abort()
      },
    })
    post({ type: 'lease', lease: { holder: lease.holder, epoch: null, standby: true } })
    say('info', { holder: lease.holder }, 'standing by for the indexer lease')
    const epoch = await Promise.race([lease.acquired, aborted(signal)])
    if (epoch === null) return
    post({ type: 'lease', lease: { holder: lease.holder, epoch, standby: false } })
    say('info', { holder: lease.holder, epoch }, 'holds the indexer lease: writing')
    const fence = (tx: Queryable) => checkFence(tx, schema, INDEXER_LEASE, epoch)
    await migratePostgres(pool, schema, [...postgresSpoolMigrations, ...postgresStreamMigrations(streams)], fence)
    const writer = postgresWriter(pool, { schema, fence })
    const stopped = AbortSignal.any([signal, lost.signal])
    await follow(writer, settings, streams, post, stopped, publishing(writer, say, stopped))
  } catch (error) {
    if (!lost.signal.aborted) post({ type: 'fatal', message: databaseProblem(error, where, roleOf(url)) ?? (error instanceof Error ? error.message : String(error)) })
  } finally {
    await lease?.stop()
    await pool.close()
  }
}

/** How often, at most, the indexer publishes its health for the api instances. */
const PUBLISH_EVERY_MS = 250

/**
 * Publishes the follower's health in the database (PUBLISHED_HEALTH) and notifies the api
 * instances, at most every PUBLISH_EVERY_MS: the latest health of each interval goes, in a
 * transaction of its own behind the writer's fence.
 */
function publishing(writer: SpoolWriter, say: (level: 'warn', fields: Record<string, unknown>, message: string) => void, stopped: AbortSignal): (health: SpoolHealth) => void {
  let latest: SpoolHealth | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  // Nothing is published once the writer stops: its connections close.
  stopped.addEventListener('abort', () => timer !== null && clearTimeout(timer), { once: true })
  const flush = async () => {
    timer = null
    const health = latest!
    latest = null
    try {
      await writer.transaction(async (tx) => {
        await setMeta(tx, PUBLISHED_HEALTH, JSON.stringify(health))
        await writer.announce(tx, health.spoolHeadBlock ?? -1)
      })
    } catch (error) {
      say('warn', { error: error instanceof Error ? error.message : String(error) }, 'the indexer could not publish its health')
    }
  }
  return (health) => {
    latest = health
    if (!stopped.aborted) timer ??= setTimeout(() => void flush(), PUBLISH_EVERY_MS)
  }
}

/** Resolves null once `signal` aborts. */
const aborted = (signal: AbortSignal) => new Promise<null>((resolve) => (signal.aborted ? resolve(null) : signal.addEventListener('abort', () => resolve(null), { once: true })))

