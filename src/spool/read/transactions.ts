import { marks, type Queries, type SpoolDb } from '../engine.ts'
import { TX_PER_BLOCK, txId } from '../codec.ts'
import { hex } from '../../eth/bytes.ts'
import { unpackTrace, type CallFrame, type TxCall } from '../traces.ts'
import type { Page } from './blocks.ts'

export { blockOfTxId, txId } from '../codec.ts'
export type { CallFrame } from '../traces.ts'
export { internalCalls, internalCallsOf, type InternalCall } from '../internalCalls.ts'

// Transactions, their logs and call traces as the spool holds them. A transaction's `id` is the
// spool's key (block × 2^20 + index), which derived tables keep to point back at it. Hashes and
// addresses are the raw bytes, wei decimal strings; lists are newest first unless said otherwise.

/** A transaction as a list shows it, with its block's time. `selector` is the input's first four bytes (null for a plain transfer). */
export type TxSummary = {
  id: number
  hash: Uint8Array
  blockNumber: number
  index: number
  from: Uint8Array
  to: Uint8Array | null
  /** The contract a creation made. */
  created: Uint8Array | null
  value: string
  selector: Uint8Array | null
  /** 1 success, 0 reverted. */
  status: number
  gasUsed: number
  effectiveGasPrice: string | null
  timestamp: number
}

/** A transaction in full. */
export type Transaction = TxSummary & {
  blockHash: Uint8Array
  nonce: number
  type: number
  gas: number
  gasPrice: string | null
  maxFee: string | null
  maxPriorityFee: string | null
  input: Uint8Array
}

/** A log of a transaction; the log index counts within the transaction on this chain. */
export type TxLog = {
  logIndex: number
  address: Uint8Array
  topic0: Uint8Array | null
  topic1: Uint8Array | null
  topic2: Uint8Array | null
  topic3: Uint8Array | null
  data: Uint8Array
}

/** What a row that keeps a transaction's id needs to show it: its hash, block and time. */
export type TxRef = { hash: Uint8Array; blockNumber: number; timestamp: number }

/** Who a transaction went between: its sender, its recipient, the contract it created. */
export type TxParties = { id: number; from: Uint8Array; to: Uint8Array | null; created: Uint8Array | null }

const SUMMARY = `t.id, t.hash, t.block_number AS "blockNumber", t.tx_index AS "index", t.from_addr AS "from", t.to_addr AS "to", t.created,
  t.value, CASE WHEN length(t.input) = 0 THEN NULL ELSE substr(t.input, 1, 4) END AS selector, t.status, t.gas_used AS "gasUsed", t.effective_gas_price AS "effectiveGasPrice", b.timestamp`
const FULL = `${SUMMARY}, b.hash AS "blockHash", t.nonce, t.type, t.gas, t.gas_price AS "gasPrice", t.max_fee AS "maxFee",
  t.max_priority_fee AS "maxPriorityFee", t.input`
const FROM = 'FROM txs t JOIN blocks b ON b.number = t.block_number'

export async function txById(db: SpoolDb, id: number): Promise<Transaction | null> {
  return db.get<Transaction>(`SELECT ${FULL} ${FROM} WHERE t.id = ?`, id)
}

export async function txByHash(db: SpoolDb, hash: Uint8Array): Promise<Transaction | null> {
  return db.get<Transaction>(`SELECT ${FULL} ${FROM} WHERE t.hash = ?`, hash)
}

/** The newest transactions of the whole chain. */
export async function latestTxs(db: SpoolDb, { limit, offset = 0 }: Page): Promise<TxSummary[]> {
  return db.all<TxSummary>(`SELECT ${SUMMARY} ${FROM} ORDER BY t.id DESC LIMIT ? OFFSET ?`, limit, offset)
}

/** Block `number`'s transactions in block order, from its `fromIndex`-th (a mini-block's first). */
export async function blockTxs(db: SpoolDb, number: number, { limit, offset = 0, fromIndex = 0 }: Page & { fromIndex?: number }): Promise<TxSummary[]> {
  return db.all<TxSummary>(`SELECT ${SUMMARY} ${FROM} WHERE t.block_number = ? AND t.tx_index >= ? ORDER BY t.id LIMIT ? OFFSET ?`, number, fromIndex, limit, offset)
}

/** A transaction with the gas its block had used up to and including it. */
export type TxInBlock = Transaction & { cumulativeGasUsed: number }

/** The transactions with these ids that the spool holds, in full, in the order of `ids`. */
export async function txsInFull(db: SpoolDb, ids: readonly number[]): Promise<TxInBlock[]> {
  if (ids.length === 0) return []
  const rows = await db.all<TxInBlock>(
    `SELECT ${FULL}, coalesce(t.cumulative_gas_used, (SELECT CAST(sum(c.gas_used) AS BIGINT) FROM txs c WHERE c.id BETWEEN t.block_number * ${TX_PER_BLOCK} AND t.id)) AS "cumulativeGasUsed"
       ${FROM} WHERE t.id IN (${marks(ids.length)})`,
    ...ids,
  )
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

/** The transactions with these ids that the spool holds, newest first. */
export async function txsByIds(db: SpoolDb, ids: readonly number[]): Promise<TxSummary[]> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return []
  return db.all<TxSummary>(`SELECT ${SUMMARY} ${FROM} WHERE t.id IN (${marks(unique.length)}) ORDER BY t.id DESC`, ...unique)
}

/**
 * The hashes of the transactions with these ids, for a page of rows that keep only the id: one
 * keyed lookup for the page. Ids the spool does not hold are absent from the map.
 */
export async function txHashes(db: SpoolDb, ids: readonly number[]): Promise<Map<number, Uint8Array>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = await db.all<{ id: number; hash: Uint8Array }>(`SELECT id, hash FROM txs WHERE id IN (${marks(unique.length)})`, ...unique)
  return new Map(rows.map((row) => [row.id, row.hash]))
}

/** As txHashes, with each transaction's block number and time. */
export async function txRefs(db: SpoolDb, ids: readonly number[]): Promise<Map<number, TxRef>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = await db.all<TxRef & { id: number }>(`SELECT t.id, t.hash, t.block_number AS "blockNumber", b.timestamp ${FROM} WHERE t.id IN (${marks(unique.length)})`, ...unique)
  return new Map(rows.map(({ id, ...ref }) => [id, ref]))
}

/** A transaction's logs, in order. */
export async function txLogs(db: SpoolDb, id: number): Promise<TxLog[]> {
  return db.all<TxLog>('SELECT log_index AS "logIndex", address, topic0, topic1, topic2, topic3, data FROM logs WHERE tx_id = ? ORDER BY log_index', id)
}

/** A transaction's call tree, or null when the node gave no traces for it. */
export async function txTrace(db: SpoolDb, id: number): Promise<CallFrame | null> {
  const row = await db.get<StoredTrace>(`SELECT ${TRACE} ${TRACE_FROM} WHERE r.tx_id = ?`, id)
  return row ? traceOf(row) : null
}

/** A stored trace with what its transaction says of its own top call, which the stored tree leaves out. */
type StoredTrace = { trace: string; from: Uint8Array; to: Uint8Array | null; value: string; input: Uint8Array }
const TRACE = 'r.trace, t.from_addr AS "from", t.to_addr AS "to", t.value, t.input'
const TRACE_FROM = 'FROM traces r JOIN txs t ON t.id = r.tx_id'

function traceOf(row: StoredTrace): CallFrame {
  const tx: TxCall = { from: hex(row.from), to: hex(row.to), value: `0x${BigInt(row.value).toString(16)}`, input: hex(row.input) }
  return unpackTrace(row.trace, tx)
}

/** The ids of the newest `limit` transactions `address` sent. */
export async function txIdsSentBy(db: SpoolDb, address: Uint8Array, limit: number): Promise<number[]> {
  return (await db.all<{ id: number }>('SELECT id FROM txs WHERE from_addr = ? ORDER BY id DESC LIMIT ?', address, limit)).map((row) => row.id)
}

/** The ids of the newest `limit` transactions sent to `address` (a creation has no recipient: see createdContract). */
export async function txIdsReceivedBy(db: SpoolDb, address: Uint8Array, limit: number): Promise<number[]> {
  return (await db.all<{ id: number }>('SELECT id FROM txs WHERE to_addr = ? ORDER BY id DESC LIMIT ?', address, limit)).map((row) => row.id)
}

/** The contract transaction `id` created, or null (not a creation, or not held). */
export async function createdContract(db: SpoolDb, id: number): Promise<Uint8Array | null> {
  return (await db.get<{ created: Uint8Array | null }>('SELECT created FROM txs WHERE id = ?', id))?.created ?? null
}

/** The transactions of blocks `firstBlock` to `lastBlock`, in chain order, with who they went between: for a block stream, on the writer's connection. */
export function txPartiesOfBlocks(db: Queries, firstBlock: number, lastBlock: number): Promise<TxParties[]> {
  return db.all<TxParties>('SELECT id, from_addr AS "from", to_addr AS "to", created FROM txs WHERE id >= ? AND id < ? ORDER BY id', txId(firstBlock, 0), txId(lastBlock + 1, 0))
}

/**
 * The call trees of blocks `firstBlock` to `lastBlock` that create a contract somewhere (most
 * create nothing, and SQLite skips those without handing them over), in transaction order: for a
 * block stream, on the writer's connection.
 */
export async function creationTraces(db: Queries, firstBlock: number, lastBlock: number): Promise<Array<{ txId: number; trace: CallFrame }>> {
  const rows = await db.all<StoredTrace & { txId: number }>(
    `SELECT r.tx_id AS "txId", ${TRACE} ${TRACE_FROM} WHERE r.tx_id >= ? AND r.tx_id < ? AND r.trace LIKE '%"CREATE%' ORDER BY r.tx_id`,
    txId(firstBlock, 0),
    txId(lastBlock + 1, 0),
  )
  return rows.map((row) => ({ txId: row.txId, trace: traceOf(row) }))
}

/** A call a transaction made, as the spool holds it: its input and status (1 success, 0 reverted), its block's time in seconds. */
export type SentCall = { id: number; input: Uint8Array; status: number; timestamp: number }

/** The transactions `from` sent to `to` whose input starts with `selector` (a function's four bytes), oldest first. */
export async function callsFromTo(db: SpoolDb, from: Uint8Array, to: Uint8Array, selector: Uint8Array): Promise<SentCall[]> {
  return db.all<SentCall>(`SELECT t.id, t.input, t.status, b.timestamp ${FROM} WHERE t.from_addr = ? AND t.to_addr = ? AND substr(t.input, 1, 4) = ? ORDER BY t.id`, from, to, selector)
}

export async function txCount(db: SpoolDb): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM txs'))!.n
}

/** A transaction of the same sender next to another, by nonce. */
export type SenderNeighbour = { hash: Uint8Array; nonce: number }

/**
 * The sender's transactions just before and after transaction `id` (the one with the next lower
 * and next higher nonce the spool holds). A sender's nonces rise with the chain's order, so each
 * is one step along the txs_from index, however many transactions the sender has.
 */
export async function senderNeighbours(db: SpoolDb, from: Uint8Array, id: number): Promise<{ previous: SenderNeighbour | null; next: SenderNeighbour | null }> {
  const previous = await db.get<SenderNeighbour>('SELECT hash, nonce FROM txs WHERE from_addr = ? AND id < ? ORDER BY id DESC LIMIT 1', from, id)
  const next = await db.get<SenderNeighbour>('SELECT hash, nonce FROM txs WHERE from_addr = ? AND id > ? ORDER BY id LIMIT 1', from, id)
  return { previous, next }
}
