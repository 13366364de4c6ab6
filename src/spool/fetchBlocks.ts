import type { Hex } from 'viem'
import type { Rpc, RpcCall, RpcResult } from '../chain/rpc.ts'
import { fromCallTracer, fromParity, type CallFrame, type GethFrame } from './traces.ts'
import { RetryableError } from '../errors.ts'

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

/** The node gave an answer that does not add up (receipts missing, hashes that differ). */
export class InconsistentBlockError extends RetryableError {
  override name = 'InconsistentBlockError'
}

const toHex = (number: number): Hex => `0x${number.toString(16)}`

/**
 * Fetches blocks with their transactions, receipts and call traces in one JSON-RPC batch.
 * A block the node does not have (not produced yet, or outside its history) comes back null.
 */
export async function fetchBlocks(rpc: Rpc, numbers: number[], caps: Capabilities): Promise<Array<BlockBundle | null>> {
  const calls: RpcCall[] = []
  const requested = { receipts: caps.blockReceipts !== false, traces: caps.traces === 'calltracer' ? ('calltracer' as const) : caps.traces === false ? null : ('parity' as const) }
  for (const number of numbers) {
    calls.push({ method: 'eth_getBlockByNumber', params: [toHex(number), true] })
    if (requested.receipts) calls.push({ method: 'eth_getBlockReceipts', params: [toHex(number)] })
    if (requested.traces === 'parity') calls.push({ method: 'trace_block', params: [toHex(number)] })
    if (requested.traces === 'calltracer') calls.push({ method: 'debug_traceBlockByNumber', params: [toHex(number), { tracer: 'callTracer' }] })
  }
  const results = await rpc.batch(calls)

  const bundles: Array<BlockBundle | null> = []
  const needReceipts: BlockBundle[] = []
  let at = 0
  for (let remaining = numbers.length; remaining > 0; remaining--) {
    const blockResult = results[at++]!
    const receiptsResult = requested.receipts ? results[at++]! : null
    const tracesResult = requested.traces ? results[at++]! : null
    if (!blockResult.ok) throw blockResult.error
    const block = blockResult.value as RawBlock | null
    if (!block) {
      bundles.push(null)
      continue
    }
    const bundle: BlockBundle = { block, receipts: [], traces: null }

    if (receiptsResult) {
      if (receiptsResult.ok && Array.isArray(receiptsResult.value)) {
        caps.blockReceipts = true
        bundle.receipts = receiptsResult.value as RawReceipt[]
      } else if (!receiptsResult.ok && receiptsResult.error.isUnsupported) {
        caps.blockReceipts = false
        needReceipts.push(bundle)
      } else if (!receiptsResult.ok) {
        throw receiptsResult.error
      } else {
        needReceipts.push(bundle)
      }
    } else {
      needReceipts.push(bundle)
    }

    if (tracesResult) bundle.traces = readTraces(tracesResult, requested.traces!, block, caps)
    bundles.push(bundle)
  }

  // A node without eth_getBlockReceipts: one receipt call per transaction, in one more batch.
  const receiptCalls = needReceipts.flatMap((bundle) =>
    bundle.block.transactions.map((tx) => ({ method: 'eth_getTransactionReceipt', params: [tx.hash] })),
  )
  const receipts = await rpc.batch(receiptCalls)
  let next = 0
  for (const bundle of needReceipts) {
    bundle.receipts = bundle.block.transactions.map(() => {
      const result = receipts[next++]!
      if (!result.ok) throw result.error
      return result.value as RawReceipt
    })
  }

  // A node without trace_block: try the call tracer for these blocks before giving up on traces.
  if (caps.traces === 'calltracer') {
    const untraced = bundles.filter((bundle): bundle is BlockBundle => bundle !== null && bundle.traces === null)
    const answers = await rpc.batch(untraced.map((bundle) => ({ method: 'debug_traceBlockByNumber', params: [bundle.block.number, { tracer: 'callTracer' }] })))
    untraced.forEach((bundle, index) => (bundle.traces = readTraces(answers[index]!, 'calltracer', bundle.block, caps)))
  }

  for (const bundle of bundles) if (bundle) check(bundle)
  return bundles
}

/** The traces of one block from a trace_block or call-tracer answer; null when the node has none. */
function readTraces(result: RpcResult, kind: 'parity' | 'calltracer', block: RawBlock, caps: Capabilities): CallFrame[] | null {
  if (result.ok && Array.isArray(result.value)) {
    caps.traces = kind
    if (kind === 'parity') return fromParity(result.value, block.transactions.map((tx) => tx.hash))
    // Geth's answer wraps each frame as {txHash, result}; some nodes give the frames bare.
    return (result.value as Array<GethFrame & { result?: GethFrame }>).map((entry) => fromCallTracer(entry.result ?? entry))
  }
  if (!result.ok && result.error.isUnsupported) {
    // trace_block missing: the call tracer is next; the call tracer missing too: no traces.
    caps.traces = kind === 'parity' ? 'calltracer' : false
    return null
  }
  if (!result.ok) throw result.error
  return null
}

function check({ block, receipts, traces }: BlockBundle): void {
  const number = Number.parseInt(block.number, 16)
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

