import { afterAll, describe, expect, test } from 'bun:test'
import { getMeta } from '../meta.ts'
import type { Database } from '../sqlite/db.ts'
import { sqliteWriter } from '../sqlite/engine.ts'
import { readStreamCursor, type StreamDefinition } from '../streams.ts'
import { FollowerFailures } from './failures.ts'
import { copyBlocks, keptLog, scratchSpool, scriptedNode, scriptedStream } from './scriptedNode.ts'
import { StreamScheduler } from './streamScheduler.ts'

const node = scriptedNode()
// 11 blocks of 100 transactions, one log each: more logs than a short pass takes.
node.mine(11, 100)
afterAll(() => node.close())

/** The streams over a spool of the node's blocks, scheduled until stopped. */
async function scheduled(streams: StreamDefinition[], catchingUp = false, maxLogsPerPass?: number) {
  const { db, path } = scratchSpool(streams)
  await copyBlocks(db, node, 0, 10)
  const writer = sqliteWriter(db)
  const { lines, log } = keptLog()
  const failures = new FollowerFailures({ path, rpcUrl: node.url, requestTimeoutMs: 1000, repeatMs: 30_000, log, changed: () => {}, nodeLost: () => {} })
  let changes = 0
  const scheduler = new StreamScheduler(writer, { streams, maxLogsPerPass, startBlock: 0, maxReorgDepth: 5, catchingUp: () => catchingUp, changed: () => changes++, exclusive: (work) => work() }, failures)
  const abort = new AbortController()
  const running = scheduler.run(abort.signal)
  return {
    db,
    writer,
    lines,
    failures,
    changes: () => changes,
    stop: async () => {
      abort.abort()
      await running
    },
  }
}

const rows = (db: Database, name: string) => (db.query(`SELECT count(*) AS n FROM ${name}_rows`).get() as { n: number }).n
/** Until `done`, for at most a second. */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await done()) && waited < 1000; waited += 5) await Bun.sleep(5)
}

describe('the derived streams', () => {
  test('each stream runs pass after pass up to the spool, then sleeps; the history they keep is recorded first', async () => {
    const { db, writer, changes, stop } = await scheduled([scriptedStream('a'), scriptedStream('b')], false, 500)
    await until(async () => (await readStreamCursor(writer, 'a')).blockNumber === 10 && (await readStreamCursor(writer, 'b')).blockNumber === 10)
    const settled = changes()
    await Bun.sleep(50)
    await stop()
    expect([rows(db, 'a'), rows(db, 'b')]).toEqual([1100, 1100])
    // Three passes each at 500 logs (1100 logs), a health report after each; caught up, they sleep two seconds.
    expect(settled).toBe(6)
    expect(changes()).toBe(settled)
    // The deepest block a rollback reaches, maxReorgDepth below the spool's head.
    expect(await getMeta(writer, 'history_from')).toBe('5')
  })

  test('while the spool catches up, a stream takes one short pass and waits', async () => {
    const { db, changes, stop } = await scheduled([scriptedStream('a')], true)
    await until(async () => changes() > 0)
    await Bun.sleep(50)
    await stop()
    expect(changes()).toBe(1)
    expect(rows(db, 'a')).toBe(1000)
  })

  test('a failing pass is said and kept as the stream\'s error; the other streams go on', async () => {
    const { db, writer, lines, failures, stop } = await scheduled([scriptedStream('broken', () => new Error('no such row')), scriptedStream('fine')])
    await until(async () => (await readStreamCursor(writer, 'fine')).blockNumber === 10)
    await stop()
    expect(failures.streamError('broken')).toBe('no such row')
    expect(rows(db, 'broken')).toBe(0)
    expect(lines).toEqual([
      { level: 'error', fields: { stream: 'broken', error: 'no such row' }, message: 'a derived stream pass failed; it is tried again every two seconds; said again every 30 s while it lasts' },
    ])
  })
})
