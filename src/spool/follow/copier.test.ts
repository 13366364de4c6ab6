import { sqliteDb, sqliteWriter } from '../sqlite/engine.ts'
import { afterAll, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { NodeTimeoutError } from '../../errors.ts'
import { getMeta } from '../meta.ts'
import { SpoolMeter } from '../meter.ts'
import { historyGaps } from '../read/blocks.ts'
import { getCursor, storedHash } from '../store.ts'
import { Copier, type CopierOptions } from './copier.ts'
import { FollowerFailures } from './failures.ts'
import { keptLog, scratchSpool, scriptedNode, type ScriptedNode } from './scriptedNode.ts'

const nodes: ScriptedNode[] = []
afterAll(() => nodes.forEach((node) => node.close()))

/** A scripted node, a scratch spool and a copier between them, with what they said. */
async function setUp(options: Partial<CopierOptions> = {}, requestTimeoutMs = 5000) {
  const node = scriptedNode({ requestTimeoutMs })
  nodes.push(node)
  const { db } = scratchSpool()
  const writer = sqliteWriter(db)
  const { lines, log } = keptLog()
  const meter = new SpoolMeter()
  const reorganised: number[] = []
  const failures = new FollowerFailures({ path: 'spool.db', rpcUrl: node.url, requestTimeoutMs, repeatMs: 30_000, log, meter, changed: () => {}, nodeLost: () => {} })
  const copier = new Copier(
    writer,
    {
      rpc: node.rpc,
      startBlock: 0,
      batchBlocks: 10,
      concurrency: 2,
      requestTimeoutMs,
      onHistoryGap: 'stop',
      log,
      meter,
      changed: () => {},
      reorganise: async (from) => void reorganised.push(from),
      ...options,
    },
    failures,
  )
  await copier.start()
  return { node, db, writer, copier, failures, lines, meter, reorganised }
}

const count = (db: Database, table: string) => (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => error as Error,
  )

describe('the copy of new blocks', () => {
  test('copies every block with its transactions, receipts, logs and traces, in paced requests', async () => {
    const { node, db, writer, copier, meter, lines } = await setUp()
    node.mine(40, 3)
    expect(await copier.catchUp(0, 39)).toBe(true)
    expect(await getCursor(writer)).toBe(39)
    expect(await storedHash(writer, 39)).toBe((await node.rpc.call<{ hash: string }>('eth_getBlockByNumber', ['0x27', false])).hash)
    expect([count(db, 'blocks'), count(db, 'txs'), count(db, 'logs'), count(db, 'traces')]).toEqual([40, 120, 120, 120])
    // The work of the blocks ahead is counted first, then blocks are asked several to a request.
    expect(node.calls.filter((method) => method === 'eth_getBlockTransactionCountByNumber')).toHaveLength(40)
    const reading = meter.drain()!
    expect(reading.fetches.length).toBeGreaterThan(1)
    expect(reading.fetches.reduce((sum, fetch) => sum + fetch.blocks, 0)).toBe(40)
    expect(reading.batches.reduce((sum, batch) => sum + batch.txs, 0)).toBe(120)
    expect(copier.tracesAvailable()).toBe(true)
    expect(await getMeta(writer, 'traces_available')).toBe('1')
    expect(copier.fetchState().lastRequestMs).not.toBeNull()
    expect(lines).toEqual([])
    // Nothing new: nothing written.
    expect(await copier.catchUp(40, 39)).toBe(false)
  })

  test('a long catch-up is written in runs, and says when it has caught up', async () => {
    const { node, copier, lines, meter } = await setUp()
    node.mine(120, 0)
    await copier.catchUp(0, 119)
    // Several answers a transaction (100 blocks here), not one transaction an answer.
    expect(meter.drain()!.batches.map((batch) => batch.blocks)).toEqual([100, 20])
    expect(lines).toEqual([{ level: 'info', fields: { blocks: 20, seconds: expect.any(Number), head: 119 }, message: 'caught up with the node' }])
    expect(copier.catchUpStatus).toBeNull()
    await copier.noteProgress(150)
    expect(copier.catchUpStatus).toMatchObject({ blocksLeft: 31 })
  })

  test('a node without block receipts or traces is asked per transaction, and said so once', async () => {
    const { node, db, writer, copier, lines } = await setUp()
    node.lacks = new Set(['eth_getBlockReceipts', 'trace_block', 'debug_traceBlockByNumber'])
    node.mine(12, 2)
    await copier.catchUp(0, 11)
    expect([count(db, 'txs'), count(db, 'traces')]).toEqual([24, 0])
    expect(node.calls.filter((method) => method === 'eth_getTransactionReceipt')).toHaveLength(24)
    expect(lines).toEqual([
      {
        level: 'warn',
        fields: { missing: ['eth_getBlockReceipts', 'trace_block', 'debug_traceBlockByNumber'] },
        message:
          'the node lacks eth_getBlockReceipts, trace_block, debug_traceBlockByNumber: receipts are asked one transaction at a time (eth_getTransactionReceipt); transactions are stored without call traces',
      },
    ])
    expect(copier.tracesAvailable()).toBe(false)
    expect(await getMeta(writer, 'traces_available')).toBe('0')
  })

  test('blocks that do not follow the stored tip hand over to the walk back', async () => {
    const { node, writer, copier, reorganised } = await setUp()
    node.mine(10)
    await copier.catchUp(0, 9)
    node.fork(8, 5)
    expect(await copier.catchUp(10, 12)).toBe(true)
    expect(reorganised).toEqual([9])
    expect(await getCursor(writer)).toBe(9)
  })

  test("the node's own blocks that do not link: those before the break are written, the rest retried, and after a walk back that dropped nothing, not taken for a reorganisation", async () => {
    const { node, writer, copier, failures, reorganised } = await setUp()
    node.mine(10)
    node.unlink(6)
    expect(await copier.catchUp(0, 9)).toBe(false)
    expect(await getCursor(writer)).toBe(5)
    const reason = failures.retryHealth()!.reason
    expect(reason).toStartWith('block 6 of the node names 0x')
    expect(reason).toEndWith(`but the node's block 5 is ${await storedHash(writer, 5)}: the node's blocks do not link`)
    // The tip is still the node's: the walk back found nothing to drop.
    copier.rolledBack(5, 0)
    expect(await copier.catchUp(6, 9)).toBe(false)
    expect(reorganised).toEqual([])
    expect(failures.retryHealth()!.attempts).toBe(2)
    // Once the node's blocks link again, they are written and the retry is over.
    node.fork(6, 4)
    expect(await copier.catchUp(6, 9)).toBe(true)
    expect(failures.retryHealth()).toBeNull()
  })

  test('a block the node no longer has stops the spool before it, by default', async () => {
    const { node, writer, copier, failures } = await setUp()
    node.mine(20)
    node.forget(0, 4)
    expect(await copier.catchUp(0, 19)).toBe(false)
    expect(await getCursor(writer)).toBe(-1)
    expect(failures.historyGap).toEqual({ from: 0, to: 19 })
  })

  test('or is recorded as a hole the spool goes on after, when the operator says so', async () => {
    const { node, db, writer, copier, lines } = await setUp({ onHistoryGap: 'record' })
    node.mine(20)
    node.forget(0, 4)
    expect(await copier.catchUp(0, 19)).toBe(true)
    expect(await getCursor(writer)).toBe(19)
    expect(await historyGaps(sqliteDb(db))).toEqual([{ from: 0, to: 4 }])
    expect(lines).toContainEqual({
      level: 'error',
      fields: { from: 0, to: 4, nodeHead: 19 },
      message: 'blocks the node no longer has were recorded as a history gap (spool.onHistoryGap = "record"): the spool goes on after them, and the explorer says they are missing',
    })
  })

  test('a request the node does not answer in time halves what is asked, and is remembered for the wait', async () => {
    const { node, writer, copier } = await setUp({}, 150)
    node.mine(6)
    node.slow(['eth_getBlockByNumber'], 250)
    const error = await failureOf(copier.catchUp(0, 5))
    expect(error).toBeInstanceOf(NodeTimeoutError)
    expect(await getCursor(writer)).toBe(-1)
    expect(copier.fetchState()).toMatchObject({ timeouts: 1, workPerRequest: 32 })
    const late = copier.takeTimedOut()!
    expect(late.blocks).toBeGreaterThan(0)
    expect(late.ms).toBeGreaterThanOrEqual(140)
    expect(copier.takeTimedOut()).toBeNull()
  })
})
