// The spool's writer, in a worker of its own: batch writes and stream passes never hold up the
// event loop that answers HTTP requests.
import { createRpc } from '../chain/rpc.ts'
import type { Config } from '../config/load.ts'
import { createStreams } from '../streams.ts'
import { openSpool, type Database } from './db.ts'
import { Follower } from './follower.ts'
import type { SpoolHealth } from './health.ts'
import { asSpoolFileError } from './storage.ts'

declare const self: Worker

export type ToWorker = { type: 'start'; config: Config; path: string; failureRepeatMs?: number } | { type: 'stop' }
export type FromWorker =
  | { type: 'health'; health: SpoolHealth }
  | { type: 'log'; level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string }
  | { type: 'fatal'; message: string }
  | { type: 'stopped' }

const post = (message: FromWorker) => self.postMessage(message)
const abort = new AbortController()
let running: Promise<void> | null = null

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data
  if (message.type === 'start' && !running) running = start(message.config, message.path, message.failureRepeatMs)
  if (message.type === 'stop') {
    abort.abort()
    void (running ?? Promise.resolve()).finally(() => post({ type: 'stopped' }))
  }
}

async function start(config: Config, path: string, failureRepeatMs: number | undefined): Promise<void> {
  const streams = createStreams(config)
  let db: Database
  try {
    db = openSpool(path, streams.flatMap((stream) => stream.migrations))
  } catch (error) {
    // The main thread opened the same file a moment ago; whatever changed since is said in one line.
    const failure = asSpoolFileError(error, path)
    post({ type: 'fatal', message: failure instanceof Error ? failure.message : String(failure) })
    return
  }
  const { spool } = config
  const follower = new Follower(db, {
    path,
    rpc: createRpc(config.chain.rpc, { timeoutMs: 30_000 }),
    wsUrl: config.chain.ws,
    chainId: config.chain.chainId,
    startBlock: spool.startBlock,
    batchBlocks: spool.batchBlocks,
    concurrency: spool.concurrency,
    pollMs: spool.pollMs,
    maxReorgDepth: spool.maxReorgDepth,
    streams,
    failureRepeatMs,
    log: (level, fields, message) => post({ type: 'log', level, fields, message }),
    onHealth: (health) => post({ type: 'health', health }),
  })
  post({ type: 'health', health: follower.health() })
  try {
    await follower.run(abort.signal)
  } catch (error) {
    post({ type: 'fatal', message: (error as Error).message })
  } finally {
    db.close()
  }
}
