// A JSON-RPC node in this process, for the follower's unit tests: it answers what the spool asks
// (heads, blocks, counts, receipts, traces, the chain's identity) from a chain held in memory, and
// does what a test scripts: mine, fork, forget old blocks, lack methods, answer late, break a
// link, answer errors, or go away. The spool reaches it over HTTP through its own RPC client.
// Beside it, what those tests share: a scratch spool, a plain copy of blocks, a log kept in memory.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRpc, type Rpc } from '../../chain/rpc.ts'
import { quantity } from '../../eth/quantity.ts'
import { openSpool, type Database } from '../sqlite/db.ts'
import { sqliteWriter } from '../sqlite/engine.ts'
import { fetchBlocks, type BlockBundle, type RawBlock, type RawLog, type RawReceipt, type RawTx } from '../fetchBlocks.ts'
import { writeBatch } from '../store.ts'
import { eventTable } from '../kit/tables.ts'
import type { LogStream, StreamDefinition } from '../streams.ts'
import type { FollowerLog } from './failures.ts'

/** The topic every scripted transaction's one log carries. */
export const SCRIPTED_TOPIC = `0x${'5c'.repeat(32)}` as const

type Call = { jsonrpc?: string; id?: number; method: string; params?: unknown[] }
type Answer = { result?: unknown; error?: { code: number; message: string } }
type Stored = { block: RawBlock; receipts: RawReceipt[] }

export type ScriptedNodeOptions = { chainId?: number; requestTimeoutMs?: number }

export type ScriptedNode = {
  url: string
  /** The spool's own client of this node. */
  rpc: Rpc
  /** Every method asked so far, in order. */
  calls: string[]
  /** The node's head; -1 before block 0. */
  head: () => number
  /** Mines `count` blocks of `txs` transactions each (one log apiece). */
  mine: (count: number, txs?: number) => void
  /** Replaces the blocks from `from` on with `count` new ones (a fork), each of `txs` transactions. */
  fork: (from: number, count: number, txs?: number) => void
  /** Block `number` names a parent that is not the block before it. */
  unlink: (number: number) => void
  /** The node answers null for these blocks, as one that no longer has them. */
  forget: (from: number, to: number) => void
  /** Methods answered "method not found". */
  lacks: Set<string>
  /** Answers to these methods come this late. */
  slow: (methods: string[], ms: number) => void
  /** A hook that may answer a call itself (an error, say); undefined leaves it to the node. */
  script: ((call: Call) => Answer | undefined) | null
  /** While true, the node answers HTTP 503, as a node that is away. */
  down: boolean
  close: () => void
}

const word = (...parts: number[]) => `0x${parts.map((part) => part.toString(16).padStart(16, '0')).join('').padStart(64, '0')}` as const
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const
const hex = (n: number) => `0x${n.toString(16)}` as const

export function scriptedNode(options: ScriptedNodeOptions = {}): ScriptedNode {
  const chainId = options.chainId ?? 78270
  const chain: Stored[] = []
  const forgotten = new Set<number>()
  const delays = new Map<string, number>()
  let forks = 0

  const makeBlock = (number: number, fork: number, txs: number): Stored => {
    const hash = word(1, fork, number)
    const transactions: RawTx[] = []
    const receipts: RawReceipt[] = []
    for (let index = 0; index < txs; index++) {
      const txHash = word(2, fork, number, index)
      transactions.push({ hash: txHash, from: address(0x1000 + index), to: address(0x2000 + index), value: '0x1', nonce: hex(number), type: '0x2', gas: '0x5208', maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x1', input: '0x', transactionIndex: hex(index) })
      const log: RawLog = { address: address(0x2000 + index), topics: [SCRIPTED_TOPIC, word(number)], data: '0x', logIndex: hex(index), transactionIndex: hex(index), transactionHash: txHash }
      receipts.push({ transactionHash: txHash, transactionIndex: hex(index), status: '0x1', gasUsed: '0x5208', effectiveGasPrice: '0x1', contractAddress: null, logs: [log] })
    }
    const parentHash = number === 0 ? word(0) : chain[number - 1]!.block.hash
    const block: RawBlock = { number: hex(number), hash, parentHash, timestamp: hex(1_700_000_000 + number), gasUsed: hex(21_000 * txs), gasLimit: '0x1c9c380', baseFeePerGas: '0x1', transactions }
    return { block, receipts }
  }

  const present = (number: number) => (forgotten.has(number) ? undefined : chain[number])
  const blockNumber = (param: unknown) => quantity(String(param))
  const traces = ({ block }: Stored) =>
    block.transactions.map((tx, position) => ({
      type: 'call',
      action: { from: tx.from, to: tx.to, callType: 'call', value: tx.value, gas: tx.gas, input: tx.input },
      result: { gasUsed: '0x0', output: '0x' },
      traceAddress: [],
      transactionHash: tx.hash,
      transactionPosition: position,
    }))

  const answer = (call: Call): Answer => {
    const params = call.params ?? []
    switch (call.method) {
      case 'eth_chainId':
        return { result: hex(chainId) }
      case 'eth_blockNumber':
        return { result: hex(chain.length - 1) }
      case 'eth_getBlockByNumber': {
        const stored = present(blockNumber(params[0]))
        if (!stored) return { result: null }
        return { result: params[1] ? stored.block : { ...stored.block, transactions: stored.block.transactions.map((tx) => tx.hash) } }
      }
      case 'eth_getBlockTransactionCountByNumber': {
        const stored = present(blockNumber(params[0]))
        return { result: stored ? hex(stored.block.transactions.length) : null }
      }
      case 'eth_getBlockReceipts':
        return { result: present(blockNumber(params[0]))?.receipts ?? null }
      case 'eth_getTransactionReceipt':
        return { result: chain.flatMap((stored) => stored.receipts).find((receipt) => receipt.transactionHash === params[0]) ?? null }
      case 'trace_block': {
        const stored = present(blockNumber(params[0]))
        return { result: stored ? traces(stored) : null }
      }
      default:
        return { error: { code: -32601, message: `Method not found: ${call.method}` } }
    }
  }

  const node: ScriptedNode = {
    url: '',
    rpc: null as unknown as Rpc,
    calls: [],
    head: () => chain.length - 1,
    mine: (count, txs = 1) => {
      for (let i = 0; i < count; i++) chain.push(makeBlock(chain.length, forks, txs))
    },
    fork: (from, count, txs = 1) => {
      forks++
      chain.length = from
      for (let i = 0; i < count; i++) chain.push(makeBlock(chain.length, forks, txs))
    },
    unlink: (number) => {
      chain[number]!.block.parentHash = word(9, number)
    },
    forget: (from, to) => {
      for (let number = from; number <= to; number++) forgotten.add(number)
    },
    lacks: new Set(),
    slow: (methods, ms) => {
      for (const method of methods) delays.set(method, ms)
    },
    script: null,
    down: false,
    close: () => server.stop(true),
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      if (node.down) return new Response('away', { status: 503 })
      const body = (await request.json()) as Call | Call[]
      const calls = Array.isArray(body) ? body : [body]
      let late = 0
      const answers = calls.map((call) => {
        node.calls.push(call.method)
        late = Math.max(late, delays.get(call.method) ?? 0)
        const given = node.script?.(call) ?? (node.lacks.has(call.method) ? { error: { code: -32601, message: `Method not found: ${call.method}` } } : answer(call))
        return { jsonrpc: '2.0', id: call.id, ...given }
      })
      if (late > 0) await Bun.sleep(late)
      return Response.json(Array.isArray(body) ? answers : answers[0])
    },
  })
  node.url = `http://127.0.0.1:${server.port}`
  node.rpc = createRpc(node.url, { timeoutMs: options.requestTimeoutMs ?? 5000 })
  return node
}

/** A fresh spool file in a temporary folder, with the migrations of `streams`. */
export function scratchSpool(streams: StreamDefinition[] = []): { db: Database; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-follow-')), 'spool.db')
  return { db: openSpool(path, streams.flatMap((stream) => stream.migrations)), path }
}

/** Copies the node's blocks `from` to `to` into the spool as they are, in one run. */
export async function copyBlocks(db: Database, node: ScriptedNode, from: number, to: number): Promise<void> {
  const numbers = Array.from({ length: to - from + 1 }, (_, index) => from + index)
  const bundles = await fetchBlocks(node.rpc, numbers, { blockReceipts: null, traces: null })
  await writeBatch(sqliteWriter(db), bundles as BlockBundle[])
}

/**
 * A derived stream of the scripted transactions' logs: one row a log in `<name>_rows`, declared so
 * that the spool rolls it back. `fail` makes a pass throw.
 */
export function scriptedStream(name: string, fail: () => unknown = () => null): LogStream {
  return {
    name,
    migrations: [{ id: `test/${name}`, sql: `CREATE TABLE ${name}_rows (tx_id INTEGER, log_index INTEGER, block_number INTEGER, PRIMARY KEY (tx_id, log_index))` }],
    topics: [SCRIPTED_TOPIC],
    tables: [eventTable(`${name}_rows`)],
    apply: async (tx, logs) => {
      const failure = fail()
      if (failure) throw failure
      for (const log of logs) await tx.run(`INSERT INTO ${name}_rows (tx_id, log_index, block_number) VALUES (?, ?, ?)`, log.txId, log.logIndex, log.blockNumber)
    },
  }
}

/** A log that keeps its lines, for a test to read. */
export function keptLog(): { lines: Array<{ level: string; fields: Record<string, unknown>; message: string }>; log: FollowerLog } {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = []
  return { lines, log: (level, fields, message) => lines.push({ level, fields, message }) }
}
