import type { Database } from 'bun:sqlite'
import type { Hex } from 'viem'
import { methodName } from './decode/decode.ts'
import { checksum, checksumOrNull } from '../eth/address.ts'
import { hex } from '../eth/bytes.ts'
import { fee } from './format.ts'
import type { RegistryView } from './registryView.ts'
import { tokenIdFromKey } from './transfers.ts'

// The row shapes every list shares, and the SQL that reads them. Spec 03 "Explorer objects"
// fixes the block row and chart point; the transaction summary is ours.

export const BLOCK_COLUMNS = `b.number, b.hash, b.timestamp, b.gas_used, b.tx_count,
  (SELECT count(*) FROM minis m WHERE m.block_number = b.number) AS mini_count`

export type BlockRecord = { number: number; hash: Uint8Array; timestamp: number; gas_used: number; tx_count: number; mini_count: number }

export function blockRow(row: BlockRecord) {
  return { number: row.number, hash: hex(row.hash), timestamp: row.timestamp, gasUsed: row.gas_used, txCount: row.tx_count, miniCount: row.mini_count }
}

export function chartPoint(row: { number: number; timestamp: number; tx_count: number; gas_used: number }) {
  return { number: row.number, timestamp: row.timestamp, txCount: row.tx_count, gasUsed: row.gas_used }
}

export type MiniRecord = { number: number; block_number: number; hash: Uint8Array | null; timestamp_us: number; tx_count: number }

export function miniRow(row: MiniRecord) {
  return { number: row.number, blockNumber: row.block_number, hash: hex(row.hash), timestamp_us: row.timestamp_us, txCount: row.tx_count }
}

export const TX_COLUMNS = `t.id, t.hash, t.block_number, t.tx_index, t.from_addr, t.to_addr, t.created, t.value,
  substr(t.input, 1, 4) AS selector, t.status, t.gas_used, t.effective_gas_price, b.timestamp`

export type TxRecord = {
  id: number
  hash: Uint8Array
  block_number: number
  tx_index: number
  from_addr: Uint8Array
  to_addr: Uint8Array | null
  created: Uint8Array | null
  value: string
  /** The first four bytes of the input; empty (or null) for a plain transfer. */
  selector: Uint8Array | null
  status: number
  gas_used: number
  effective_gas_price: string | null
  timestamp: number
}

/** One line of a transaction list. */
export function txSummary(row: TxRecord, registry: RegistryView) {
  const from = checksum(row.from_addr)
  const to = checksumOrNull(row.to_addr)
  const selector = row.selector?.length === 4 ? hex(row.selector) : null
  return {
    hash: hex(row.hash),
    blockNumber: row.block_number,
    index: row.tx_index,
    timestamp: row.timestamp,
    from,
    fromLabel: registry.labelName(from),
    to,
    toLabel: registry.labelName(to),
    created: checksumOrNull(row.created),
    value: row.value,
    method: row.created ? 'create' : (methodName(selector as Hex | null) ?? selector),
    success: row.status === 1,
    gasUsed: row.gas_used,
    fee: fee(row.gas_used, row.effective_gas_price),
  }
}

/** Transactions by id, newest first, as summaries. */
export function txSummariesByIds(db: Database, ids: number[], registry: RegistryView) {
  if (ids.length === 0) return []
  const rows = db
    .query<TxRecord, number[]>(`SELECT ${TX_COLUMNS} FROM txs t JOIN blocks b ON b.number = t.block_number WHERE t.id IN (${ids.map(() => '?').join(',')}) ORDER BY t.id DESC`)
    .all(...ids)
  return rows.map((row) => txSummary(row, registry))
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
