import type { Hex } from 'viem'
import { blockAsMiniBlock } from '../chain/miniBlocks.ts'
import { checksum, checksumOrNull } from '../eth/address.ts'
import { decimal, quantity } from '../eth/quantity.ts'
import { tableNamer, type MethodNamer } from './known.ts'
import type { RegistryView } from './registryView.ts'

/** A block as the node's JSON-RPC gives it, with full transactions. */
export type NodeBlock = {
  number: Hex
  hash: Hex
  timestamp: Hex
  stateRoot?: Hex
  /** Fields of a node with mini-blocks; absent on one without (anvil). */
  stateDiffHash?: Hex
  sequencerSig?: Hex
  transactions: Array<NodeTx | Hex>
}

export type NodeTx = { hash: Hex; from: Hex; to: Hex | null; value: Hex; input: Hex; transactionIndex: Hex; blockNumber: Hex }

export type NodeReceipt = {
  transactionHash: Hex
  status: Hex
  gasUsed: Hex
  effectiveGasPrice?: Hex
  contractAddress: Hex | null
  logs: unknown[]
}

/** A block the node gave, as its mini-block (the chain layer's rule), in the explorer's fields. */
export function miniFromBlock(block: NodeBlock) {
  const mini = blockAsMiniBlock({ number: quantity(block.number), hash: block.hash, timestamp: quantity(block.timestamp), txCount: block.transactions.length })
  return { number: mini.number, blockNumber: mini.block, hash: mini.hash, timestamp_us: mini.timestampUs, txCount: mini.txCount }
}

/** A transaction the node gave, as a list line (the spool's fields it cannot know are absent). */
export function nodeTxSummary(tx: NodeTx, block: NodeBlock, registry: RegistryView, nameMethod: MethodNamer = tableNamer) {
  const from = checksum(tx.from)
  const to = checksumOrNull(tx.to)
  const selector = tx.input.length >= 10 ? (tx.input.slice(0, 10) as Hex) : null
  return {
    hash: tx.hash,
    blockNumber: quantity(tx.blockNumber),
    index: quantity(tx.transactionIndex),
    timestamp: quantity(block.timestamp),
    from,
    fromLabel: registry.labelName(from),
    to,
    toLabel: registry.labelName(to),
    value: decimal(tx.value),
    method: tx.to === null ? 'create' : (nameMethod(tx.to, selector) ?? selector),
  }
}

export function nodeReceipt(receipt: NodeReceipt) {
  return {
    transactionHash: receipt.transactionHash,
    success: receipt.status === '0x1',
    gasUsed: quantity(receipt.gasUsed),
    effectiveGasPrice: decimal(receipt.effectiveGasPrice),
    contractAddress: checksumOrNull(receipt.contractAddress),
    logCount: receipt.logs.length,
  }
}

/**
 * A block number as a caller may write it: decimal or hex after `0x` (or `0X`, as an address's
 * prefix may be written). Null when it is neither.
 */
export function parseBlockNumber(text: string): number | null {
  let value: number
  if (/^\d{1,15}$/.test(text)) value = Number(text)
  else if (/^0[xX][0-9a-fA-F]{1,13}$/.test(text)) value = quantity(text)
  else return null
  return Number.isSafeInteger(value) ? value : null
}
