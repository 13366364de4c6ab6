import type { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRpc } from '../../src/chain/rpc.ts'
import { parseConfig, type Config } from '../../src/config/load.ts'
import type { FollowerOptions } from '../../src/spool/follower.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { quantity } from '../../src/eth/quantity.ts'
import { devNode } from '../helpers/devChain.ts'

/** Sends `count` WETH deposits, one after the other (anvil mines them as they come), and waits for the last. */
export async function deposits(rpcUrl: string, weth: string, count: number, from: string = devAccounts.carol.address): Promise<void> {
  await devNode(rpcUrl).send(Array.from({ length: count }, () => ({ from, to: weth, value: 1n, data: '0xd0e30db0' })))
}

/** A config for the spool alone; `spool` holds extra keys of the [spool] table. */
export function spoolConfig(rpcUrl: string, wsUrl: string | null, spool = '', dir = mkdtempSync(join(tmpdir(), 'stack-spool-'))): Config {
  // An unreachable WebSocket leaves the follower polling, which the tests then exercise.
  const ws = wsUrl ?? 'ws://127.0.0.1:9'
  return parseConfig(`[chain]\nrpc = "${rpcUrl}"\nws = "${ws}"\n[data]\ndir = "${dir}"\n[spool]\npollMs = 100\n${spool}`, null)
}

type NodeLog = { transactionHash: string; logIndex: string; address: string; topics: string[]; data: string; blockNumber: string }

/**
 * The spool against the node, block by block: the same hashes and parents, the same
 * transactions with the same receipt status, and the same logs, none missing, none extra.
 */
export async function expectMirror(reader: Database, rpcUrl: string, head: number): Promise<string[]> {
  const rpc = createRpc(rpcUrl)
  const problems: string[] = []
  const stored = reader.query<{ number: number; hash: Uint8Array; parent_hash: Uint8Array; tx_count: number }, []>(
    'SELECT number, hash, parent_hash, tx_count FROM blocks ORDER BY number',
  ).all()
  if (stored.length !== head + 1) problems.push(`spool has ${stored.length} blocks, node has ${head + 1}`)
  stored.forEach((row, index) => {
    if (row.number !== index) problems.push(`block ${index} missing (found ${row.number})`)
  })
  const blocks = await rpc.batch(Array.from({ length: head + 1 }, (_, n) => ({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })))
  blocks.forEach((answer, n) => {
    const block = (answer as { value: { hash: string; parentHash: string; transactions: string[] } }).value
    const row = stored[n]
    if (!row) return
    if (`0x${Buffer.from(row.hash).toString('hex')}` !== block.hash) problems.push(`block ${n} hash differs`)
    if (`0x${Buffer.from(row.parent_hash).toString('hex')}` !== block.parentHash) problems.push(`block ${n} parent differs`)
    if (row.tx_count !== block.transactions.length) problems.push(`block ${n} tx count differs`)
  })
  const txs = reader.query<{ hash: Uint8Array; status: number }, []>('SELECT hash, status FROM txs ORDER BY id').all()
  const nodeTxs = blocks.flatMap((answer) => (answer as { value: { transactions: string[] } }).value.transactions)
  if (txs.length !== nodeTxs.length) problems.push(`spool has ${txs.length} transactions, node has ${nodeTxs.length}`)
  const receipts = await rpc.batch(nodeTxs.map((hash) => ({ method: 'eth_getTransactionReceipt', params: [hash] })))
  receipts.forEach((answer, index) => {
    const receipt = (answer as { value: { transactionHash: string; status: string } }).value
    const row = txs[index]
    if (!row || `0x${Buffer.from(row.hash).toString('hex')}` !== receipt.transactionHash) problems.push(`transaction ${index} differs`)
    else if (row.status !== quantity(receipt.status)) problems.push(`transaction ${receipt.transactionHash} status differs`)
  })
  const nodeLogs = await rpc.call<NodeLog[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: `0x${head.toString(16)}` }])
  const key = (log: { tx: string; index: number; address: string; topics: string[]; data: string }) =>
    `${log.tx}:${log.index}:${log.address}:${log.topics.join(',')}:${log.data}`
  const nodeKeys = nodeLogs.map((log) =>
    key({ tx: log.transactionHash, index: quantity(log.logIndex), address: log.address.toLowerCase(), topics: log.topics, data: log.data }),
  )
  const spoolKeys = reader
    .query<{ tx: Uint8Array; log_index: number; address: Uint8Array; t0: Uint8Array | null; t1: Uint8Array | null; t2: Uint8Array | null; t3: Uint8Array | null; data: Uint8Array }, []>(
      'SELECT t.hash AS tx, l.log_index, l.address, l.topic0 AS t0, l.topic1 AS t1, l.topic2 AS t2, l.topic3 AS t3, l.data FROM logs l JOIN txs t ON t.id = l.tx_id ORDER BY l.tx_id, l.log_index',
    )
    .all()
    .map((row) => {
      const h = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`
      return key({ tx: h(row.tx), index: row.log_index, address: h(row.address), topics: [row.t0, row.t1, row.t2, row.t3].filter((t): t is Uint8Array => t !== null).map(h), data: h(row.data) })
    })
  if (JSON.stringify(nodeKeys) !== JSON.stringify(spoolKeys)) {
    problems.push(`logs differ: node ${nodeKeys.length}, spool ${spoolKeys.length}`)
  }
  return problems
}

type RpcMessage = { id?: number; method?: string; params?: unknown[]; result?: unknown }

/**
 * A JSON-RPC proxy in front of a node, on a port of its own: stopping it makes the node
 * unreachable for whoever uses it, starting it again on the same port brings the node back.
 * `answer` may replace the node's answer to a call (to play a node with a shorter history).
 */
export function rpcProxy(target: string, answer?: (call: RpcMessage, result: unknown) => unknown, refuse: string[] = [], fixedPort = 0) {
  let server: ReturnType<typeof Bun.serve> | null = null
  let port = fixedPort
  const start = () => {
    server = Bun.serve({
      hostname: '127.0.0.1',
      port,
      reusePort: false,
      fetch: async (request) => {
        let body = await request.text()
        // Methods this node "does not have" answer method-not-found, as a node without them would.
        if (refuse.length > 0) {
          const parsed = JSON.parse(body) as RpcMessage | RpcMessage[]
          const list = Array.isArray(parsed) ? parsed : [parsed]
          const refused = list.filter((call) => refuse.includes(call.method ?? ''))
          if (refused.length > 0) {
            const kept = list.filter((call) => !refuse.includes(call.method ?? ''))
            const answers = kept.length > 0 ? ((await (await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(kept) })).json()) as RpcMessage[]) : []
            const errors = refused.map((call) => ({ jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `Method not found: ${call.method}` } }))
            const all = [...answers, ...errors]
            return Response.json(Array.isArray(parsed) ? all : all[0])
          }
          body = JSON.stringify(parsed)
        }
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        if (!answer) return new Response(await upstream.text(), { headers: { 'content-type': 'application/json' } })
        const calls = JSON.parse(body) as RpcMessage | RpcMessage[]
        const results = (await upstream.json()) as RpcMessage | RpcMessage[]
        const rewrite = (call: RpcMessage, result: RpcMessage) => ({ ...result, result: answer(call, result.result) })
        const rewritten = Array.isArray(calls)
          ? (results as RpcMessage[]).map((result) => rewrite(calls.find((call) => call.id === result.id)!, result))
          : rewrite(calls, results as RpcMessage)
        return Response.json(rewritten)
      },
    })
    port = server.port!
  }
  start()
  return {
    get url() {
      return `http://127.0.0.1:${port}`
    },
    stop: () => {
      server?.stop(true)
      server = null
    },
    start,
  }
}

/**
 * The follower's options for a test that runs it in its own process: small batches, a quick
 * poll, nothing logged, chain 78270 from block 0, unless `options` says otherwise.
 */
export function followerOptions(rpcUrl: string, options: Pick<FollowerOptions, 'path' | 'streams' | 'onHealth'> & Partial<FollowerOptions>): FollowerOptions {
  return { rpc: createRpc(rpcUrl), wsUrl: null, chainId: 78270, startBlock: 0, batchBlocks: 10, concurrency: 2, pollMs: 50, maxReorgDepth: 100, onHistoryGap: 'stop', log: () => {}, ...options }
}
