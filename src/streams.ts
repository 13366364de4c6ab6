import type { Config } from './config/load.ts'
import { clStream } from './exchange/cl/stream.ts'
import { v2Stream } from './exchange/v2/stream.ts'
import { explorerStream } from './explorer/stream.ts'
import type { StreamDefinition } from './spool/streams.ts'

/**
 * The derived streams the spool worker runs, in the order it runs them, each made from the
 * config. The exchange index registers its constant-product and concentrated streams here.
 */
export const streamFactories: Array<(config: Config) => StreamDefinition> = [v2Stream, clStream, explorerStream]

export function createStreams(config: Config): StreamDefinition[] {
  return streamFactories.map((make) => make(config))
}
