import type { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createRpc } from '../chain/rpc.ts'
import { FatalError, NodeUnreachableError } from '../errors.ts'
import { showStatus, type Logger } from '../log.ts'
import { openReader, openSpool, SPOOL_FILE } from './db.ts'
import { emptyHealth, type SpoolHealth } from './health.ts'
import { describeCatchUp } from './progress.ts'
import { checkIdentity, SpoolIdentityError } from './identity.ts'
import { sqliteDb, type SpoolDb } from './engine.ts'
import type { MeterReading } from './meter.ts'
import type { Migration } from './migrations.ts'
import { asSpoolFileError, SpoolFileError } from './storage.ts'
import type { StreamDefinition } from './streams.ts'
import type { FromWorker, ToWorker } from './writer.ts'

export type Spool = {
  path: string
  /** The services' read-only view of the spool (engine.ts), whichever engine holds it. */
  reader: SpoolDb
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
  /** Settles when the writer stops for good (another chain, a reorganisation too deep). */
  fatal: Promise<Error>
  stop: () => Promise<void>
}

export { SpoolFileError, SpoolIdentityError }

/** What the spool reads of the config: where its file goes, the node, and its own settings. */
export type SpoolConfig = {
  dataDir: string
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
}

/**
 * Opens the spool under data/, migrates it (with the streams' migrations), checks that the node
 * is the chain it holds (a mismatch is refused before any port opens), and starts its writer in
 * the wiring's worker. A spool file that cannot be used (damaged, not a database, read-only, on a
 * full disk) is refused the same way, with a SpoolFileError whose message says what is wrong and
 * what to do.
 */
export async function startSpool(config: SpoolConfig, wiring: SpoolWiring, log: Logger, options: StartOptions = {}): Promise<Spool> {
  const { fresh = false, failureRepeatMs, resetBlock = null } = options
  const path = join(config.dataDir, SPOOL_FILE)
  const writer = openForStart(
    path,
    fresh,
    wiring.streams.flatMap((stream) => stream.migrations),
  )
  try {
    await checkIdentity(writer, createRpc(config.chain.rpc, { timeoutMs: 3000 }), config.chain.chainId, path)
  } catch (error) {
    if (!(error instanceof NodeUnreachableError)) {
      writer.close()
      throw asSpoolFileError(error, path)
    }
    log.warn({ rpc: config.chain.rpc }, 'the node is not reachable yet; the spool will check its identity when it is')
  }
  writer.close()
  const reader = openOrExplain(path, () => openReader(path))

  let health = emptyHealth(config.chain.chainId)
  let version = 0
  let versionOf = ''
  const listeners = new Set<(health: SpoolHealth) => void>()
  const meters = new Set<(reading: MeterReading) => void>()
  let reportFatal: (error: Error) => void = () => {}
  const fatal = new Promise<Error>((resolve) => (reportFatal = resolve))
  let stopped: () => void = () => {}
  const stoppedPromise = new Promise<void>((resolve) => (stopped = resolve))

  const worker = new Worker(wiring.worker.url)
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data
    switch (message.type) {
      case 'health': {
        health = message.health
        const held = contentsOf(health)
        if (held !== versionOf) {
          versionOf = held
          version++
        }
        showCatchUp(health)
        for (const listener of listeners) listener(health)
        return
      }
      case 'meter':
        for (const listener of meters) listener(message.reading)
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
  const { chain, spool } = config
  const settings = { path, rpc: chain.rpc, ws: chain.ws, chainId: chain.chainId, ...pickSpoolSettings(spool), failureRepeatMs, resetBlock }
  const start: ToWorker = { type: 'start', settings, streamsFrom: wiring.worker.data }
  worker.postMessage(start)
  log.info({ path, startBlock: config.spool.startBlock, fresh }, 'spool started')

  return {
    path,
    reader: sqliteDb(reader),
    health: () => health,
    version: () => version,
    onHealth: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    onMeter: (listener) => {
      meters.add(listener)
      return () => meters.delete(listener)
    },
    fatal,
    stop: async () => {
      worker.postMessage({ type: 'stop' } satisfies ToWorker)
      const timeout = Bun.sleep(5000).then(() => 'timeout' as const)
      if ((await Promise.race([stoppedPromise, timeout])) === 'timeout') log.warn({ component: 'spool' }, 'the spool writer did not stop in time')
      worker.terminate()
      reader.close()
      showStatus(null)
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
