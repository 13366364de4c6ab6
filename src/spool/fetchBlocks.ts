import type { Hex } from 'viem'
import type { Rpc, RpcCall } from '../chain/rpc.ts'

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
export type BlockBundle = { block: RawBlock; receipts: RawReceipt[]; traces: unknown[] | null }

/** What the node turned out to support; null until the first answer says. */
export type Capabilities = { blockReceipts: boolean | null; traces: boolean | null }

/** The node gave an answer that does not add up (receipts missing, hashes that differ). */
export class InconsistentBlockError extends Error {
  override name = 'InconsistentBlockError'
}

const toHex = (number: number): Hex => `0x${number.toString(16)}`

/**
 * Fetches blocks with their transactions, receipts and call traces in one JSON-RPC batch.
 * A block the node does not have (not produced yet, or outside its history) comes back null.
 */
export async function fetchBlocks(rpc: Rpc, numbers: number[], caps: Capabilities): Promise<Array<BlockBundle | null>> {
  const calls: RpcCall[] = []
  for (const number of numbers) {
    calls.push({ method: 'eth_getBlockByNumber', params: [toHex(number), true] })
    if (caps.blockReceipts !== false) calls.push({ method: 'eth_getBlockReceipts', params: [toHex(number)] })
    if (caps.traces !== false) calls.push({ method: 'debug_traceBlockByNumber', params: [toHex(number), { tracer: 'callTracer' }] })
  }
  const results = await rpc.batch(calls)

  const bundles: Array<BlockBundle | null> = []
  const needReceipts: BlockBundle[] = []
  let at = 0
  for (const number of numbers) {
    const blockResult = results[at++]!
    const receiptsResult = caps.blockReceipts !== false ? results[at++]! : null
    const tracesResult = caps.traces !== false ? results[at++]! : null
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

    if (tracesResult) {
      if (tracesResult.ok && Array.isArray(tracesResult.value)) {
        caps.traces = true
        bundle.traces = (tracesResult.value as Array<{ result?: unknown }>).map((entry) => entry.result ?? entry)
      } else if (!tracesResult.ok && tracesResult.error.isUnsupported) {
        caps.traces = false
      } else if (!tracesResult.ok) {
        throw tracesResult.error
      }
    }
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

  for (const bundle of bundles) if (bundle) check(bundle)
  return bundles
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

