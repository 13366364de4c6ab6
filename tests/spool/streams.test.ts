import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { erc20Abi, toEventSelector } from 'viem'
import { openSpool } from '../../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { Follower } from '../../src/spool/follower.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import type { StreamDefinition } from '../../src/spool/streams.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { runFollower } from '../exchange/follower.ts'
import { countTally, storedTally } from '../helpers/tally.ts'
import { waitFor } from '../helpers/wait.ts'
import { followerOptions, rpcProxy, spoolConfig } from './helpers.ts'

// The derived streams read the spool, never the node: they keep deriving what the spool holds
// while the node is away, and each stream that has caught up sleeps its own two seconds.

let chain: DevChain
let head: number
beforeAll(async () => {
  chain = await startDevChain()
  head = await chain.head()
}, 60_000)
afterAll(() => chain?.stop())

/** A spool that holds the whole seeded chain and on which no stream has run yet. */
async function spoolWithoutStreams(rpcUrl: string) {
  const config = spoolConfig(rpcUrl, null)
  const path = join(config.dataDir, 'spool.db')
  let health: SpoolHealth | null = null
  const copy = runFollower(config, path, { streams: [], onHealth: (next) => (health = next) })
  await waitFor(() => health?.spoolHeadBlock === head, 'the spool at the head')
  await copy.stop()
  return { config, path }
}

test('with the node gone, every stream still derives the whole spool', async () => {
  const proxy = rpcProxy(chain.rpcUrl)
  const { config, path } = await spoolWithoutStreams(proxy.url)
  proxy.stop()
  let health: SpoolHealth | null = null
  const index = runFollower(config, path, { maxLogsPerPass: 3, onHealth: (next) => (health = next) })
  try {
    await waitFor(
      () => {
        const streams = health?.streams ?? {}
        return ['v2', 'cl', 'tally', 'explorer', 'fees'].every((name) => streams[name]?.cursorBlock === head) && health
      },
      'the five streams at the spool head, the node away',
      30_000,
    )
    expect(health!.nodeReachable).toBe(false)
    expect(health!.spoolHeadBlock).toBe(head)
    // What they derived is there: the seeded pairs (three, and three of launched tokens), pools, transfers and fees.
    expect(index.reader.query('SELECT count(*) AS n FROM v2_pair_state').get()).toEqual({ n: 6 })
    expect(index.reader.query('SELECT count(*) AS n FROM cl_pool_state').get()).toEqual({ n: 2 })
    expect((index.reader.query('SELECT count(*) AS n FROM explorer_transfers').get() as { n: number }).n).toBeGreaterThan(50)
    expect((index.reader.query('SELECT count(*) AS n FROM explorer_fee_movements').get() as { n: number }).n).toBeGreaterThan(10)
    // The tally, from blocks rather than logs: the seeded factories' pairs and pools among its contracts.
    expect(storedTally(index.reader)).toEqual(await countTally(index.reader))
    expect(storedTally(index.reader).totals.contracts).toBeGreaterThan(15)
  } finally {
    await index.stop()
  }
}, 60_000)

test('a stream that has caught up sleeps its own two seconds while another is still behind', async () => {
  const { config, path } = await spoolWithoutStreams(chain.rpcUrl)
  const transfer = toEventSelector(erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!)
  // A stream of every Transfer that takes 100 ms a log, so it is behind for seconds, and one
  // that reads nothing: it is caught up at once, and after that each of its passes only moves
  // its cursor to the spool's head, which stamps the cursor's time.
  const slow: StreamDefinition = { name: 'slow', migrations: [], topics: [transfer], tables: [], apply: async (_tx, logs) => Bun.sleepSync(100 * logs.length) }
  const idle: StreamDefinition = { name: 'idle', migrations: [], topics: [`0x${'ab'.repeat(32)}`], tables: [], apply: async () => {} }
  const idlePasses = new Set<string>()
  let health: SpoolHealth | null = null
  const index = runFollower(config, path, {
    streams: [slow, idle],
    maxLogsPerPass: 1,
    onHealth: (next) => {
      health = next
      const behind = (next.streams.slow?.cursorBlock ?? -1) < (next.spoolHeadBlock ?? 0)
      if (behind && next.streams.idle?.updatedAt) idlePasses.add(next.streams.idle.updatedAt)
    },
  })
  try {
    // The spool's head moves every 100 ms for three seconds while the slow stream is behind.
    const started = Date.now()
    for (let mined = 0; mined < 30; mined++) {
      await chain.mine()
      await Bun.sleep(100)
    }
    const seconds = (Date.now() - started) / 1000
    expect(health!.streams.slow!.cursorBlock).toBeLessThan(health!.spoolHeadBlock!)
    // Run on every turn, the idle stream would follow each new head (about thirty passes);
    // asleep for two seconds after each pass, it ran about once every two seconds.
    expect(idlePasses.size).toBeGreaterThan(0)
    expect(idlePasses.size).toBeLessThanOrEqual(Math.ceil(seconds / 2) + 1)
  } finally {
    await index.stop()
  }
}, 90_000)

test('a stream whose pass keeps failing: said again at every interval, shown in the health, cleared once it passes', async () => {
  const path = join(spoolConfig(chain.rpcUrl, null).dataDir, 'spool.db')
  const now = await chain.head()
  const transfer = toEventSelector(erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!)
  let broken = true
  const flaky: StreamDefinition = {
    name: 'flaky',
    migrations: [],
    topics: [transfer],
    tables: [],
    apply: async () => {
      if (broken) throw new Error('the flaky stream broke\nwith a second line')
    },
  }
  const said: Array<{ level: string; fields: Record<string, unknown>; message: string }> = []
  let health: SpoolHealth | null = null
  const db = openSpool(path)
  const options = followerOptions(chain.rpcUrl, {
    path,
    streams: [flaky],
    failureRepeatMs: 1000,
    log: (level, fields, message) => said.push({ level, fields, message }),
    onHealth: (next) => (health = next),
  })
  const abort = new AbortController()
  const running = new Follower(sqliteWriter(db), options).run(abort.signal)
  try {
    const failures = () => said.filter((line) => line.level === 'error' && line.fields.stream === 'flaky')
    // A pass is tried every two seconds; with a repeat of one second, each failing pass is said.
    await waitFor(() => failures().length >= 2, 'the failing pass to be said twice')
    expect(failures()[0]!.fields.error).toBe('the flaky stream broke')
    expect(failures()[0]!.message).toContain('said again every 1 s while it lasts')
    expect(health!.streams.flaky!.error).toBe('the flaky stream broke')
    // Not the disk's fault, nor the node's.
    expect(health!.storageError).toBeNull()
    expect(health!.nodeReachable).toBe(true)

    broken = false
    await waitFor(() => health?.streams.flaky?.error === null && health.streams.flaky.cursorBlock === now, 'the stream to pass again')
    expect(said.some((line) => line.level === 'info' && line.message === 'the derived stream passes again' && line.fields.stream === 'flaky')).toBe(true)
  } finally {
    abort.abort()
    await running
    db.close()
  }
}, 60_000)
