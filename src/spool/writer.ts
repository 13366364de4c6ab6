// The spool's writer, in a worker of its own: batch writes and stream passes never hold up the
// event loop that answers HTTP requests. The worker's entry is not here but at the composition
// root (src/spoolWorker.ts): a worker cannot be sent functions, so the entry builds the derived
// streams itself, from the data startSpool posts, and hands them to serveSpoolWriter.
import { createRpc } from '../chain/rpc.ts'
import { closeSpool, openSpool, type Database } from './db.ts'
import { Follower, REQUEST_TIMEOUT_MS, type FollowerSettings } from './follower.ts'
import type { SpoolHealth } from './health.ts'
import { SpoolMeter, type MeterReading } from './meter.ts'
import { asSpoolFileError } from './storage.ts'
import type { StreamDefinition } from './streams.ts'

declare const self: Worker

/** How often the follower's observations reach the metrics. */
const METER_EVERY_MS = 1000

/** The follower's settings and the node's addresses: all the worker needs, as plain data. */
export type WriterSettings = FollowerSettings & { rpc: string; ws: string | null }

/** `streamsFrom` is the wiring's data, which the worker's entry builds its streams from. */
export type ToWorker = { type: 'start'; settings: WriterSettings; streamsFrom: unknown } | { type: 'stop' }
export type FromWorker =
  | { type: 'health'; health: SpoolHealth }
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
  const { rpc, ws, ...followerSettings } = settings
  // The metrics' observations go to the main thread once a second, and once more at the end.
  const meter = new SpoolMeter()
  const postReading = () => {
    const reading = meter.drain()
    if (reading) post({ type: 'meter', reading })
  }
  const meterTimer = setInterval(postReading, METER_EVERY_MS)
  const follower = new Follower(db, {
    ...followerSettings,
    rpc: createRpc(rpc, { timeoutMs: settings.requestTimeoutMs ?? REQUEST_TIMEOUT_MS }),
    wsUrl: ws,
    streams,
    log: (level, fields, message) => post({ type: 'log', level, fields, message }),
    onHealth: (health) => post({ type: 'health', health }),
    meter,
  })
  post({ type: 'health', health: follower.health() })
  try {
    await follower.run(signal)
  } catch (error) {
    post({ type: 'fatal', message: (error as Error).message })
  } finally {
    clearInterval(meterTimer)
    postReading()
    closeSpool(db)
  }
}
