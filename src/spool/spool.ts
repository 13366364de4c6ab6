import type { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { createRpc, RpcUnreachableError } from '../chain/rpc.ts'
import type { Config } from '../config/load.ts'
import type { Logger } from '../log.ts'
import { createStreams } from '../streams.ts'
import { SPOOL_WORKER_URL } from '../workers.ts'
import { openReader, openSpool, SPOOL_FILE } from './db.ts'
import { emptyHealth, type SpoolHealth } from './health.ts'
import { checkIdentity, SpoolIdentityError } from './identity.ts'
import type { FromWorker, ToWorker } from './worker.ts'

export type Spool = {
  path: string
  /** A read-only connection for the services' queries. */
  reader: Database
  health: () => SpoolHealth
  /** Called with every new health object (the explorer's live stream, the exchange's lag). */
  onHealth: (listener: (health: SpoolHealth) => void) => () => void
  /** Settles when the writer stops for good (another chain, a reorganisation too deep). */
  fatal: Promise<Error>
  stop: () => Promise<void>
}

export { SpoolIdentityError }

/** The spool's writer stopped for good; the message says why. */
export class SpoolStoppedError extends Error {
  override name = 'SpoolStoppedError'
}

/**
 * Opens the spool under data/, migrates it, checks that the node is the chain it holds (a
 * mismatch is refused before any port opens), and starts its writer in a worker.
 * `fresh` starts from nothing, as `stack dev` does with its new chain.
 */
export async function startSpool(config: Config, log: Logger, { fresh = false } = {}): Promise<Spool> {
  const path = join(config.dataDir, SPOOL_FILE)
  if (fresh) for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true })

  const streams = createStreams(config)
  const writer = openSpool(path, streams.flatMap((stream) => stream.migrations))
  try {
    await checkIdentity(writer, createRpc(config.chain.rpc, { timeoutMs: 3000 }), config.chain.chainId, path)
  } catch (error) {
    if (!(error instanceof RpcUnreachableError)) {
      writer.close()
      throw error
    }
    log.warn({ rpc: config.chain.rpc }, 'the node is not reachable yet; the spool will check its identity when it is')
  }
  writer.close()
  const reader = openReader(path)

  let health = emptyHealth(config.chain.chainId)
  const listeners = new Set<(health: SpoolHealth) => void>()
  let reportFatal: (error: Error) => void = () => {}
  const fatal = new Promise<Error>((resolve) => (reportFatal = resolve))
  let stopped: () => void = () => {}
  const stoppedPromise = new Promise<void>((resolve) => (stopped = resolve))

  const worker = new Worker(SPOOL_WORKER_URL)
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data
    switch (message.type) {
      case 'health':
        health = message.health
        for (const listener of listeners) listener(health)
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
  const start: ToWorker = { type: 'start', config: { ...config, secrets: { faucetKey: null } }, path }
  worker.postMessage(start)
  log.info({ path, startBlock: config.spool.startBlock, fresh }, 'spool started')

  return {
    path,
    reader,
    health: () => health,
    onHealth: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    fatal,
    stop: async () => {
      worker.postMessage({ type: 'stop' } satisfies ToWorker)
      const timeout = Bun.sleep(5000).then(() => 'timeout' as const)
      if ((await Promise.race([stoppedPromise, timeout])) === 'timeout') log.warn({ component: 'spool' }, 'the spool writer did not stop in time')
      worker.terminate()
      reader.close()
    },
  }
}
