import type { Config } from './config/load.ts'
import { clStream } from './exchange/cl/stream.ts'
import { v2Stream } from './exchange/v2/stream.ts'
import { feeStream } from './explorer/feeStream.ts'
import { explorerStream } from './explorer/stream.ts'
import { tallyStream } from './explorer/tallyStream.ts'
import type { SpoolWiring } from './spool/spool.ts'
import type { StreamDefinition } from './spool/streams.ts'
import { SPOOL_WORKER_URL } from './workers.ts'

/**
 * The derived streams the spool worker runs, in the order it runs them, each made from the
 * config. The exchange index registers its constant-product and concentrated streams here, the
 * explorer its tally (driven by blocks), its transfers and the fee router's movements; the spool
 * itself knows none of them.
 * The tally goes before the transfers: each turn of the worker runs them in this order, so once
 * the transfers (which the explorer's readiness watches) reach a block, the tally has too.
 */
export const streamFactories: Array<(config: Config) => StreamDefinition> = [v2Stream, clStream, tallyStream, explorerStream, feeStream]

export function createStreams(config: Config): StreamDefinition[] {
  return streamFactories.map((make) => make(config))
}

/**
 * What startSpool is handed: the streams, and the worker entry (src/spoolWorker.ts) that builds
 * the same ones from the config it is posted. The secrets stay in this thread.
 */
export function spoolWiring(config: Config): SpoolWiring {
  return { streams: createStreams(config), worker: { url: SPOOL_WORKER_URL, data: { ...config, secrets: { faucetKey: null } } } }
}
