import type { Hex } from 'viem'
import { methodName } from './decode/decode.ts'
import { checksum, checksumOrNull } from '../eth/address.ts'
import { hex } from '../eth/bytes.ts'
import { fee } from './format.ts'
import type { RegistryView } from './registryView.ts'
import { tokenIdFromKey } from './transfers.ts'
import type { BlockHeader, BlockSummary, Mini, TxSummary } from '../spool/read.ts'

// The row shapes every list shares, each made in one place from what the reads return. Spec 03
// "Explorer objects" fixes the block row and chart point; the transaction summary is ours.

export function blockRow(block: BlockSummary) {
  return { number: block.number, hash: hex(block.hash), timestamp: block.timestamp, gasUsed: block.gasUsed, txCount: block.txCount, miniCount: block.miniCount }
}

export function chartPoint(block: BlockHeader) {
  return { number: block.number, timestamp: block.timestamp, txCount: block.txCount, gasUsed: block.gasUsed }
}

export function miniRow(mini: Mini) {
  return { number: mini.number, blockNumber: mini.blockNumber, hash: hex(mini.hash), timestamp_us: mini.timestampUs, txCount: mini.txCount }
}

/** One line of a transaction list. */
export function txSummary(tx: TxSummary, registry: RegistryView) {
  const from = checksum(tx.from)
  const to = checksumOrNull(tx.to)
  const selector = tx.selector?.length === 4 ? hex(tx.selector) : null
  return {
    hash: hex(tx.hash),
    blockNumber: tx.blockNumber,
    index: tx.index,
    timestamp: tx.timestamp,
    from,
    fromLabel: registry.labelName(from),
    to,
    toLabel: registry.labelName(to),
    created: checksumOrNull(tx.created),
    value: tx.value,
    method: tx.created ? 'create' : (methodName(selector as Hex | null) ?? selector),
    success: tx.status === 1,
    gasUsed: tx.gasUsed,
    fee: fee(tx.gasUsed, tx.effectiveGasPrice),
  }
}

export const TRANSFER_COLUMNS = `x.tx_id, x.log_index, x.seq, x.block_number, x.token, x.kind, x.from_addr, x.to_addr, x.token_id, x.amount,
  t.hash AS tx_hash, b.timestamp`

export type TransferRecord = {
  tx_id: number
  log_index: number
  seq: number
  block_number: number
  token: Uint8Array
  kind: number
  from_addr: Uint8Array
  to_addr: Uint8Array
  token_id: string | null
  amount: string
  tx_hash: Uint8Array
  timestamp: number
}

export const TRANSFER_JOINS = 'JOIN txs t ON t.id = x.tx_id JOIN blocks b ON b.number = x.block_number'

/** A token or NFT movement as lists show it; ERC-20 rows carry the listed symbol and decimals. */
export function transferRow(row: TransferRecord, registry: RegistryView) {
  const token = checksum(row.token)
  const listed = registry.token(token)
  return {
    txHash: hex(row.tx_hash),
    blockNumber: row.block_number,
    timestamp: row.timestamp,
    logIndex: row.log_index,
    ...(row.kind === 1155 ? { batchIndex: row.seq } : {}),
    token,
    tokenLabel: registry.labelName(token),
    standard: `erc${row.kind}`,
    from: checksum(row.from_addr),
    to: checksum(row.to_addr),
    ...(row.token_id === null ? { value: row.amount, symbol: listed?.symbol ?? null, decimals: listed?.decimals ?? null } : { tokenId: tokenIdFromKey(row.token_id), amount: row.amount }),
  }
}
