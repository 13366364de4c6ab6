import type { Database } from 'bun:sqlite'
import type { Config } from '../../src/config/load.ts'
import { openReader, openSpool } from '../../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { Follower } from '../../src/spool/follower.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import type { StreamDefinition } from '../../src/spool/streams.ts'
import { createStreams } from '../../src/streams.ts'
import { devNode } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { followerOptions } from '../spool/helpers.ts'

/**
 * The spool's follower with the registered streams, in this process (so a test controls the
 * pass size and sees every health report), over the spool file at `path`.
 */
export function runFollower(config: Config, path: string, options: { maxLogsPerPass?: number; streams?: StreamDefinition[]; onHealth?: (health: SpoolHealth) => void } = {}) {
  const { maxLogsPerPass, streams = createStreams(config) } = options
  const db: Database = openSpool(path, streams.flatMap((stream) => stream.migrations))
  const reader = openReader(path)
  let health: SpoolHealth | null = null
  const abort = new AbortController()
  const follower = new Follower(
    sqliteWriter(db),
    followerOptions(config.chain.rpc, {
      path,
      wsUrl: config.chain.ws,
      chainId: config.chain.chainId,
      maxReorgDepth: 200,
      streams,
      maxLogsPerPass,
      onHealth: (next) => {
        health = next
        options.onHealth?.(next)
      },
    }),
  )
  const node = devNode(config.chain.rpc)
  const running = follower.run(abort.signal)
  return {
    reader,
    /** Waits until the spool and both streams stand at the node's head; returns that block. */
    caughtUp: async () => {
      let head = -1
      await waitFor(async () => {
        head = await node.head()
        return health?.spoolHeadBlock === head && health.streams.v2?.cursorBlock === head && health.streams.cl?.cursorBlock === head
      }, 'the spool and both streams at the head')
      return head
    },
    stop: async () => {
      abort.abort()
      await running
      reader.close()
      db.close()
    },
  }
}
