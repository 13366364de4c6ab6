import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRpc } from '../../src/chain/rpc.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { txId } from '../../src/spool/codec.ts'
import { openSpool } from '../../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { Follower } from '../../src/spool/follower.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import { startNode, type RunningNode } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { followerOptions, rpcProxy } from './helpers.ts'

// How the follower meets a slow node: requests sized by the work they carry, nothing sent again
// while the node still works on it, a block too heavy for one request fetched in parts, and a
// node whose blocks do not link tried again with a back-off, counted and said, not in silence.

const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

type Call = { id?: number; method?: string; params?: unknown[] }

/**
 * A node with one worker in front of a real one: requests are answered one at a time, each after
 * `costMs` of "work" (the call's cost, summed over a batch), whether or not the client still
 * waits. A client that times out and asks again finds its new request queued behind the old.
 */
function busyNode(target: string, costMs: (call: Call, txCount: (block: unknown) => number) => number) {
  const txCounts = new Map<string, number>()
  let queue: Promise<unknown> = Promise.resolve()
  let inFlight = 0
  let mostInFlight = 0
  let requests = 0
  const methods = new Map<string, number>()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      const body = await request.text()
      requests++
      inFlight++
      mostInFlight = Math.max(mostInFlight, inFlight)
      const parsed = JSON.parse(body) as Call | Call[]
      const calls = Array.isArray(parsed) ? parsed : [parsed]
      for (const call of calls) methods.set(call.method ?? '', (methods.get(call.method ?? '') ?? 0) + 1)
      const turn = queue.then(async () => {
        const cost = calls.reduce((sum, call) => sum + costMs(call, (block) => txCounts.get(String(block)) ?? 0), 0)
        if (cost > 0) await Bun.sleep(cost)
        return fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((answer) => answer.text())
      })
      queue = turn.catch(() => {})
      try {
        return new Response(await turn, { headers: { 'content-type': 'application/json' } })
      } finally {
        inFlight--
      }
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** Remembers how many transactions each block holds, so that costs can follow them. */
    know: (block: number, txs: number) => txCounts.set(`0x${block.toString(16)}`, txs),
    stats: () => ({ requests, mostInFlight, methods }),
    stop: () => server.stop(true),
  }
}

/** Runs a follower on a fresh spool against `rpcUrl`; gives its health as it goes and what it logged. */
function follow(rpcUrl: string, options: Partial<Parameters<typeof followerOptions>[1]> = {}) {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-pace-')), 'spool.db')
  const db = openSpool(path, [])
  let health: SpoolHealth | null = null
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = []
  const follower = new Follower(
    sqliteWriter(db),
    followerOptions(rpcUrl, {
      path,
      streams: [],
      onHealth: (next) => (health = next),
      log: (level, fields, message) => lines.push({ level, fields, message }),
      ...options,
      // The client's time limit is the follower's, as the spool's worker makes it.
      rpc: createRpc(rpcUrl, { timeoutMs: options.requestTimeoutMs ?? 30_000 }),
    }),
  )
  const abort = new AbortController()
  const running = follower.run(abort.signal)
  const stop = async () => {
    abort.abort()
    await running.catch(() => {})
    db.close()
  }
  cleanup.push(stop)
  return { db, lines, health: () => health, running, stop }
}

/** Sends `count` plain transfers from one dev account in one block; gives the block. */
async function blockOf(node: RunningNode, count: number): Promise<number> {
  const to = devAccounts.bob.address
  return node.sendInOneBlock(Array.from({ length: count }, () => ({ from: devAccounts.carol.address, to, value: 1n })))
}

const storedTxs = (db: ReturnType<typeof follow>['db'], block: number) =>
  db.query<{ n: number }, [number]>('SELECT count(*) AS n FROM txs WHERE block_number = ?').get(block)!.n

test('a node that takes 100 ms per transaction to trace: requests shrink to what it answers in time, none times out', async () => {
  const node = await startNode()
  cleanup.push(() => node.stop())
  const busy: number[] = []
  for (let index = 0; index < 6; index++) busy.push(await blockOf(node, 12))
  await node.mine(30)
  const head = await node.head()
  // 1.2 s to trace one of these blocks: ten of them in one request (the old fixed batch) took 12 s.
  const proxy = busyNode(node.rpcUrl, (call, txCount) => (call.method === 'trace_block' ? 100 * txCount(call.params?.[0]) : 0))
  cleanup.push(() => proxy.stop())
  for (const block of busy) proxy.know(block, 12)

  const spool = follow(proxy.url, { requestTimeoutMs: 4000, batchBlocks: 10, concurrency: 4 })
  await waitFor(() => spool.health()?.spoolHeadBlock === head, 'the spool to catch up', 60_000)
  expect(spool.health()!.fetch!.timeouts).toBe(0)
  for (const block of busy) expect(storedTxs(spool.db, block)).toBe(12)
  // One worker at the node: more than a couple in flight would only queue there.
  expect(proxy.stats().mostInFlight).toBeLessThanOrEqual(4)
}, 90_000)

test('a block too heavy for one request goes through in parts: the block, then receipts and traces per transaction', async () => {
  const node = await startNode()
  cleanup.push(() => node.stop())
  const heavy = await blockOf(node, 300)
  await node.mine(2)
  const head = await node.head()
  // The whole block's receipts or traces take 3 s, past the 2 s limit; per transaction, 10 ms each.
  const proxy = busyNode(node.rpcUrl, (call, txCount) => {
    if (call.method === 'trace_block' || call.method === 'eth_getBlockReceipts') return 10 * txCount(call.params?.[0])
    if (call.method === 'trace_transaction' || call.method === 'eth_getTransactionReceipt') return 10
    return 0
  })
  cleanup.push(() => proxy.stop())
  proxy.know(heavy, 300)

  const spool = follow(proxy.url, { requestTimeoutMs: 2000 })
  await waitFor(() => spool.health()?.spoolHeadBlock === head, 'the spool to get past the heavy block', 60_000)
  expect(storedTxs(spool.db, heavy)).toBe(300)
  const traced = spool.db.query<{ n: number }, [number, number]>('SELECT count(*) AS n FROM traces WHERE tx_id >= ? AND tx_id < ?').get(txId(heavy, 0), txId(heavy + 1, 0))
  expect(traced!.n).toBe(300)
  // The whole block's receipts and traces timed out; per transaction they went through.
  expect(proxy.stats().methods.get('trace_transaction')).toBe(300)
  expect(proxy.stats().methods.get('eth_getTransactionReceipt')).toBe(300)
  expect(spool.lines.some((line) => line.message.includes('node unreachable'))).toBe(false)
}, 90_000)

test('a node whose blocks do not link: tried again with a back-off, counted in the health, said in the log and said again', async () => {
  const node = await startNode()
  cleanup.push(() => node.stop())
  await node.mine(6)
  // A restored state whose block 3 does not name block 2 as its parent.
  const bogus = `0x${'ab'.repeat(32)}`
  const proxy = rpcProxy(node.rpcUrl, (call, result) =>
    call.method === 'eth_getBlockByNumber' && call.params?.[0] === '0x3' && result ? { ...(result as object), parentHash: bogus } : result,
  )
  cleanup.push(() => proxy.stop())
  let requests = 0
  const counting = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      requests++
      const answer = await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await request.text() })
      return new Response(await answer.text(), { headers: { 'content-type': 'application/json' } })
    },
  })
  cleanup.push(() => counting.stop(true))

  const spool = follow(`http://127.0.0.1:${counting.port}`, { failureRepeatMs: 1500 })
  const health = await waitFor(() => ((spool.health()?.retrying?.attempts ?? 0) >= 3 ? spool.health() : null), 'the retries to be counted', 20_000)
  expect(health!.spoolHeadBlock).toBe(2)
  expect(health!.retrying!.reason).toContain('block 3')
  await waitFor(() => spool.lines.filter((line) => line.level === 'warn' && line.message.includes('do not link')).length >= 2, 'the problem to be said twice', 20_000)
  // Backing off: a few requests a second at most, where a loop without a pause makes hundreds
  // (a rate, so counted over three seconds of the follower's real pauses).
  const before = requests
  await Bun.sleep(3000)
  expect(requests - before).toBeLessThan(30)
  expect(spool.health()!.spoolHeadBlock).toBe(2)
}, 60_000)

test('a spool that starts after the node dropped old transactions stops at the first lost block; with "record" it records the hole and goes on', async () => {
  // anvil keeps the transactions of its last 5 blocks: an older block comes back as a header
  // with an empty transaction list, though its gas used and transactions root say otherwise.
  const node = await startNode({ args: ['--transaction-block-keeper', '5'] })
  cleanup.push(() => node.stop())
  for (let index = 0; index < 12; index++) await blockOf(node, 3)
  const head = await node.head()
  const rpc = createRpc(node.rpcUrl)
  const old = await rpc.call<{ transactions: unknown[]; gasUsed: string }>('eth_getBlockByNumber', ['0x1', true])
  expect(old.transactions).toEqual([])
  expect(BigInt(old.gasUsed)).toBeGreaterThan(0n)

  const stopping = follow(node.rpcUrl)
  const stopped = await waitFor(() => stopping.health()?.historyGap ?? null, 'the gap to be reported')
  expect(stopped).toEqual({ from: 1, to: head })
  expect(stopping.health()!.spoolHeadBlock).toBe(0)
  expect(stopping.db.query<{ n: number }, []>('SELECT count(*) AS n FROM blocks WHERE number > 0').get()!.n).toBe(0)
  expect(stopping.lines.some((line) => line.level === 'error' && line.message.includes('history window'))).toBe(true)

  const recording = follow(node.rpcUrl, { onHistoryGap: 'record' })
  await waitFor(() => recording.health()?.spoolHeadBlock === head, 'the spool to move past the hole')
  const health = recording.health()!
  const kept = head - 4
  expect(health.historyGaps).toEqual([{ from: 1, to: kept - 1 }])
  expect(health.historyGap).toBeNull()
  for (let block = kept; block <= head; block++) expect(storedTxs(recording.db, block)).toBe(3)
  expect(recording.db.query<{ n: number }, [number]>('SELECT count(*) AS n FROM blocks WHERE number BETWEEN 1 AND ?').get(kept - 1)!.n).toBe(0)
  expect(recording.lines.some((line) => line.level === 'error' && line.message.includes('recorded as a history gap'))).toBe(true)
}, 60_000)
