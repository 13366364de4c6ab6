import type { Hex } from 'viem'
import { answerKind, type Rpc, type RpcCall, type RpcResult } from '../chain/rpc.ts'
import { fromCallTracer, fromParity, type CallFrame, type GethFrame } from './traces.ts'
import { NodeTimeoutError, RetryableError } from '../errors.ts'
import { quantity, quantityOrNull } from '../eth/quantity.ts'

export type RawLog = { address: Hex; topics: Hex[]; data: Hex; logIndex: Hex; transactionIndex: Hex; transactionHash: Hex }
export type RawTx = {
  hash: Hex
  from: Hex
  to: Hex | null
  value: Hex
  nonce: Hex
  type?: Hex
  gas: Hex
  gasPrice?: Hex
  maxFeePerGas?: Hex
  maxPriorityFeePerGas?: Hex
  input: Hex
  transactionIndex: Hex
}
export type RawReceipt = {
  transactionHash: Hex
  transactionIndex: Hex
  status: Hex
  gasUsed: Hex
  effectiveGasPrice?: Hex
  contractAddress: Hex | null
  logs: RawLog[]
}
export type RawBlock = {
  number: Hex
  hash: Hex
  parentHash: Hex
  transactionsRoot?: Hex
  timestamp: Hex
  miner?: Hex
  gasUsed: Hex
  gasLimit: Hex
  baseFeePerGas?: Hex
  size?: Hex
  transactions: RawTx[]
}

/** One block with everything the spool keeps of it. `traces` is null when the node has none. */
export type BlockBundle = { block: RawBlock; receipts: RawReceipt[]; traces: CallFrame[] | null }

/**
 * What the node turned out to support; null until the first answer says. Traces come from
 * trace_block where the node has it (cheap: no re-execution), else from the call tracer.
 */
export type Capabilities = { blockReceipts: boolean | null; traces: 'parity' | 'calltracer' | false | null }

/**
 * The methods the node turned out to lack (in the order they are asked), and what the spool does
 * without them, in words for the log.
 */
export function lackedMethods(caps: Capabilities): { methods: string[]; meaning: string } {
  const methods: string[] = []
  const meaning: string[] = []
  if (caps.blockReceipts === false) {
    methods.push('eth_getBlockReceipts')
    meaning.push('receipts are asked one transaction at a time (eth_getTransactionReceipt)')
  }
  if (caps.traces === 'calltracer' || caps.traces === false) methods.push('trace_block')
  if (caps.traces === 'calltracer') meaning.push('call traces come from debug_traceBlockByNumber with the call tracer')
  if (caps.traces === false) {
    methods.push('debug_traceBlockByNumber')
    meaning.push('transactions are stored without call traces')
  }
  return { methods, meaning: meaning.join('; ') }
}

/** The node gave an answer that does not add up (receipts missing, hashes that differ). */
export class InconsistentBlockError extends RetryableError {
  override name = 'InconsistentBlockError'
}

const toHex = (number: number): Hex => `0x${number.toString(16)}`

/**
 * The transactionsRoot of a block without transactions: the root of an empty trie, or (Hardhat's
 * genesis block) the hash of no bytes at all, which no list of transactions hashes to either.
 */
const EMPTY_ROOTS = new Set([
  '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
  '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470',
])

/**
 * Whether the node still has the block's body. A node that keeps transactions for its last
 * blocks only (anvil's --transaction-block-keeper) answers an older block's header with an empty
 * transaction list while its gas used and transactions root say otherwise: that block is gone
 * from the node as surely as one it answers null for, and storing it empty would lose its
 * transactions without a word.
 */
export function hasBody(block: RawBlock): boolean {
  if (block.transactions.length > 0) return true
  return quantity(block.gasUsed) === 0 && (block.transactionsRoot === undefined || EMPTY_ROOTS.has(block.transactionsRoot.toLowerCase()))
}

/** Adds up the bytes of the node's answers, for the pacer. */
export type Meter = { bytes: number }

/**
 * How many transactions each block holds (null: the node has no such block), from the cheap
 * per-block counts, so that requests can be cut by the work they carry. One batch.
 */
export async function countTransactions(rpc: Rpc, numbers: number[]): Promise<Array<number | null>> {
  const results = await rpc.batch(numbers.map((number) => ({ method: 'eth_getBlockTransactionCountByNumber', params: [toHex(number)] })))
  return results.map((result) => {
    if (!result.ok) throw result.error
    return quantityOrNull(result.value as string | null)
  })
}

/**
 * Fetches blocks with their transactions, receipts and call traces in one JSON-RPC batch.
 * A block the node does not have (not produced yet, or outside its history, or its body gone)
 * comes back null.
 */
export async function fetchBlocks(rpc: Rpc, numbers: number[], caps: Capabilities, meter: Meter = { bytes: 0 }): Promise<Array<BlockBundle | null>> {
  const calls: RpcCall[] = []
  const requested = { receipts: caps.blockReceipts !== false, traces: caps.traces === 'calltracer' ? ('calltracer' as const) : caps.traces === false ? null : ('parity' as const) }
  for (const number of numbers) {
    calls.push({ method: 'eth_getBlockByNumber', params: [toHex(number), true] })
    if (requested.receipts) calls.push({ method: 'eth_getBlockReceipts', params: [toHex(number)] })
    if (requested.traces === 'parity') calls.push({ method: 'trace_block', params: [toHex(number)] })
    if (requested.traces === 'calltracer') calls.push({ method: 'debug_traceBlockByNumber', params: [toHex(number), { tracer: 'callTracer' }] })
  }
  const { results, bytes } = await rpc.sizedBatch(calls)
  meter.bytes += bytes

  const bundles: Array<BlockBundle | null> = []
  const needReceipts: BlockBundle[] = []
  const tracedApart: BlockBundle[] = []
  let at = 0
  for (let remaining = numbers.length; remaining > 0; remaining--) {
    const blockResult = results[at++]!
    const receiptsResult = requested.receipts ? results[at++]! : null
    const tracesResult = requested.traces ? results[at++]! : null
    if (!blockResult.ok) throw blockResult.error
    const block = blockResult.value as RawBlock | null
    if (!block || !hasBody(block)) {
      bundles.push(null)
      continue
    }
    const bundle: BlockBundle = { block, receipts: [], traces: null }

    const receipts = receiptsResult ? answerKind(receiptsResult) : null
    if (receiptsResult?.ok && Array.isArray(receiptsResult.value)) {
      caps.blockReceipts = true
      bundle.receipts = receiptsResult.value as RawReceipt[]
    } else if (receiptsResult && !receiptsResult.ok && receipts === 'failed') {
      throw receiptsResult.error
    } else {
      // Not asked, refused (the node lacks the method), or null for a block the node has: per transaction.
      if (receipts === 'unsupported') caps.blockReceipts = false
      needReceipts.push(bundle)
    }

    if (tracesResult && requested.traces === 'parity' && leavesOut(tracesResult, block)) tracedApart.push(bundle)
    else if (tracesResult) bundle.traces = readTraces(tracesResult, requested.traces!, block, caps)
    bundles.push(bundle)
  }

  // A node without eth_getBlockReceipts: one receipt call per transaction, in one more batch.
  const receiptCalls = needReceipts.flatMap((bundle) =>
    bundle.block.transactions.map((tx) => ({ method: 'eth_getTransactionReceipt', params: [tx.hash] })),
  )
  const sized = await rpc.sizedBatch(receiptCalls)
  meter.bytes += sized.bytes
  const receipts = sized.results
  let next = 0
  for (const bundle of needReceipts) {
    bundle.receipts = bundle.block.transactions.map(() => {
      const result = receipts[next++]!
      if (!result.ok) throw result.error
      return result.value as RawReceipt
    })
  }

  // Blocks whose trace_block answer left transactions out: their traces one transaction at a time.
  const perTransaction = await rpc.sizedBatch(tracedApart.flatMap(({ block }) => block.transactions.map((tx) => ({ method: 'trace_transaction', params: [tx.hash] }))))
  meter.bytes += perTransaction.bytes
  let traced = 0
  if (tracedApart.length > 0) caps.traces = 'parity'
  for (const bundle of tracedApart) {
    const lists = bundle.block.transactions.map(() => {
      const result = perTransaction.results[traced++]!
      if (!result.ok) throw result.error
      return result.value as ParityTraces
    })
    bundle.traces = fromParity(lists.flat(), bundle.block.transactions.map((tx) => tx.hash))
  }

  // A node without trace_block: try the call tracer for these blocks before giving up on traces.
  if (caps.traces === 'calltracer') {
    const untraced = bundles.filter((bundle): bundle is BlockBundle => bundle !== null && bundle.traces === null)
    const sized = await rpc.sizedBatch(untraced.map((bundle) => ({ method: 'debug_traceBlockByNumber', params: [bundle.block.number, { tracer: 'callTracer' }] })))
    meter.bytes += sized.bytes
    const answers = sized.results
    untraced.forEach((bundle, index) => (bundle.traces = readTraces(answers[index]!, 'calltracer', bundle.block, caps)))
  }

  for (const bundle of bundles) if (bundle) check(bundle)
  return bundles
}

/**
 * Fetches one block too heavy for one request (thousands of transactions) in parts, each its own
 * request: the block, its receipts, its traces. A part that still takes too long is asked per
 * transaction, `chunk` transactions a request. Null when the node does not have the block.
 */
export async function fetchBlockInParts(rpc: Rpc, number: number, caps: Capabilities, chunk: number, meter: Meter = { bytes: 0 }): Promise<BlockBundle | null> {
  const ask = async (calls: RpcCall[]) => {
    const sized = await rpc.sizedBatch(calls)
    meter.bytes += sized.bytes
    return sized.results
  }
  const [blockResult] = await ask([{ method: 'eth_getBlockByNumber', params: [toHex(number), true] }])
  if (!blockResult!.ok) throw blockResult!.error
  const block = blockResult!.value as RawBlock | null
  if (!block || !hasBody(block)) return null
  const hashes = block.transactions.map((tx) => tx.hash)
  /** One call per transaction, `chunk` to a request, the answers in order. */
  const perTransaction = async (call: (hash: Hex) => RpcCall): Promise<unknown[]> => {
    const answers: unknown[] = []
    for (let at = 0; at < hashes.length; at += chunk) {
      for (const result of await ask(hashes.slice(at, at + chunk).map(call))) {
        if (!result.ok) throw result.error
        answers.push(result.value)
      }
    }
    return answers
  }
  /** The whole block's answer in one call, or per transaction when that call takes too long. */
  const wholeOrPerTransaction = async (whole: RpcCall, call: (hash: Hex) => RpcCall): Promise<RpcResult> => {
    try {
      return (await ask([whole]))[0]!
    } catch (error) {
      if (!(error instanceof NodeTimeoutError)) throw error
      return { ok: true, value: await perTransaction(call) }
    }
  }

  const bundle: BlockBundle = { block, receipts: [], traces: null }
  const receiptsOne = (hash: Hex): RpcCall => ({ method: 'eth_getTransactionReceipt', params: [hash] })
  if (caps.blockReceipts !== false) {
    const result = await wholeOrPerTransaction({ method: 'eth_getBlockReceipts', params: [toHex(number)] }, receiptsOne)
    const kind = answerKind(result)
    if (result.ok && Array.isArray(result.value)) {
      caps.blockReceipts ??= true
      bundle.receipts = result.value as RawReceipt[]
    } else if (!result.ok && kind === 'failed') {
      throw result.error
    } else {
      if (kind === 'unsupported') caps.blockReceipts = false
      bundle.receipts = (await perTransaction(receiptsOne)) as RawReceipt[]
    }
  } else {
    bundle.receipts = (await perTransaction(receiptsOne)) as RawReceipt[]
  }

  if (caps.traces !== false && caps.traces !== 'calltracer') {
    const result = await wholeOrPerTransaction({ method: 'trace_block', params: [toHex(number)] }, (hash) => ({ method: 'trace_transaction', params: [hash] }))
    // Per transaction, each answer is that transaction's list; trace_block's is one list of all.
    const flat: RpcResult = result.ok && Array.isArray(result.value) && result.value.every(Array.isArray) ? { ok: true, value: result.value.flat() } : result
    bundle.traces = leavesOut(flat, block)
      ? fromParity(((await perTransaction((hash) => ({ method: 'trace_transaction', params: [hash] }))) as ParityTraces[]).flat(), hashes)
      : readTraces(flat, 'parity', block, caps)
  }
  if (caps.traces === 'calltracer') {
    const tracer = { tracer: 'callTracer' }
    const result = await wholeOrPerTransaction({ method: 'debug_traceBlockByNumber', params: [toHex(number), tracer] }, (hash) => ({
      method: 'debug_traceTransaction',
      params: [hash, tracer],
    }))
    bundle.traces = readTraces(result, 'calltracer', block, caps)
  }
  check(bundle)
  return bundle
}

type ParityTraces = Parameters<typeof fromParity>[0]

/**
 * Whether a trace_block answer leaves some of the block's transactions out, which are then asked
 * one transaction at a time: anvil answers an empty list for the block a fork started from, and
 * trace_transaction for each of its transactions.
 */
function leavesOut(result: RpcResult, block: RawBlock): boolean {
  if (!result.ok || !Array.isArray(result.value)) return false
  const traced = new Set((result.value as ParityTraces).map((trace) => trace.transactionHash?.toLowerCase()))
  return block.transactions.some((tx) => !traced.has(tx.hash.toLowerCase()))
}

/** The traces of one block from a trace_block or call-tracer answer; null when the node has none. */
function readTraces(result: RpcResult, kind: 'parity' | 'calltracer', block: RawBlock, caps: Capabilities): CallFrame[] | null {
  if (result.ok && Array.isArray(result.value)) {
    caps.traces = kind
    if (kind === 'parity') return fromParity(result.value, block.transactions.map((tx) => tx.hash))
    // Geth's answer wraps each frame as {txHash, result}; some nodes give the frames bare.
    return (result.value as Array<GethFrame & { result?: GethFrame }>).map((entry) => fromCallTracer(entry.result ?? entry))
  }
  if (answerKind(result) === 'unsupported') {
    // trace_block missing: the call tracer is next, unless another request found it missing
    // too (requests run side by side); the call tracer missing: no traces.
    caps.traces = kind === 'parity' && caps.traces !== false ? 'calltracer' : false
    return null
  }
  if (!result.ok) throw result.error
  return null
}

function check({ block, receipts, traces }: BlockBundle): void {
  const number = quantity(block.number)
  if (receipts.length !== block.transactions.length) {
    throw new InconsistentBlockError(`block ${number}: ${block.transactions.length} transactions but ${receipts.length} receipts`)
  }
  block.transactions.forEach((tx, index) => {
    if (receipts[index]?.transactionHash?.toLowerCase() !== tx.hash.toLowerCase()) {
      throw new InconsistentBlockError(`block ${number}: receipt ${index} is for another transaction`)
    }
  })
  if (traces && traces.length !== block.transactions.length) {
    throw new InconsistentBlockError(`block ${number}: ${block.transactions.length} transactions but ${traces.length} traces`)
  }
}

