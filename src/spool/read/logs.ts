import type { Dialect, SpoolDb } from '../engine.ts'
import { txId } from '../codec.ts'
import type { BlockRange } from './lists.ts'

// Logs by filter, with what a list of them shows of their transaction and block, and the token
// transfer logs of an address or a token, each from an index (docs/etherscan.md).

/** A log with its transaction's and block's fields. The log index is the node's. */
export type FoundLog = {
  txId: number
  logIndex: number
  blockNumber: number
  address: Uint8Array
  topic0: Uint8Array | null
  topic1: Uint8Array | null
  topic2: Uint8Array | null
  topic3: Uint8Array | null
  data: Uint8Array
  txHash: Uint8Array
  txIndex: number
  gasPrice: string | null
  effectiveGasPrice: string | null
  gasUsed: number
  blockHash: Uint8Array
  timestamp: number
}

const LOG = 'l.tx_id AS "txId", l.log_index AS "logIndex", l.block_number AS "blockNumber", l.address, l.topic0, l.topic1, l.topic2, l.topic3, l.data'
const WITH_TX = `${LOG}, t.hash AS "txHash", t.tx_index AS "txIndex", t.gas_price AS "gasPrice", t.effective_gas_price AS "effectiveGasPrice", t.gas_used AS "gasUsed",
  b.hash AS "blockHash", b.timestamp`
const JOIN = 'JOIN txs t ON t.id = l.tx_id JOIN blocks b ON b.number = l.block_number'

/**
 * A topic condition: the four topics, each wanted value or null for any, and between each pair
 * of given topics in order whether both must hold (`and`) or either (`or`); `and` binds before
 * `or`, as in any boolean expression.
 */
export type LogFilter = { range: BlockRange; address: Uint8Array | null; topics: Array<Uint8Array | null>; joins: Array<'and' | 'or'> }

/**
 * The logs that match, oldest first, `limit` after skipping `offset`. SQLite walks the index of
 * the address or of topic0 when the filter has one, else the logs' own key over the range, and
 * stops at the page's end.
 */
export async function findLogs(db: SpoolDb, filter: LogFilter, limit: number, offset: number): Promise<FoundLog[]> {
  const params: Array<Uint8Array | number> = [txId(filter.range.first, 0), txId(filter.range.last + 1, 0) - 1]
  const terms = ['tx_id BETWEEN ? AND ?']
  if (filter.address) {
    terms.push('address = ?')
    params.push(filter.address)
  }
  // `and` binds before `or`: the given topics in order, cut into groups at each `or`.
  const groups: string[][] = []
  let joinAt = 0
  filter.topics.forEach((topic, index) => {
    if (!topic) return
    params.push(topic)
    if (groups.length === 0 || filter.joins[joinAt++] === 'or') groups.push([])
    groups.at(-1)!.push(`topic${index} = ?`)
  })
  if (groups.length > 0) terms.push(`(${groups.map((group) => `(${group.join(' AND ')})`).join(' OR ')})`)
  params.push(limit, offset)
  return db.all<FoundLog>(`SELECT ${WITH_TX} FROM (SELECT * FROM logs WHERE ${terms.join(' AND ')} ORDER BY tx_id, log_index LIMIT ? OFFSET ?) l ${JOIN} ORDER BY l.tx_id, l.log_index`, ...params)
}

/**
 * Whether SQLite can walk an index for the filter: the address's, or topic0's when every topic is
 * joined by `and`. Any other filter reads the logs' own key over its range.
 */
export function filterHasIndex(filter: LogFilter): boolean {
  return filter.address !== null || (filter.topics[0] !== null && filter.joins.every((join) => join === 'and'))
}

/** Whether the range holds more than `max` logs: one walk of the logs' key, cut at `max`. */
export async function logsInRangeExceed(db: SpoolDb, range: BlockRange, max: number): Promise<boolean> {
  const row = await db.get<{ n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM logs WHERE tx_id BETWEEN ? AND ? LIMIT ?) held', txId(range.first, 0), txId(range.last + 1, 0) - 1, max + 1)
  return (row?.n ?? 0) > max
}

/** The token standards whose transfer logs are listed. */
export type TokenStandard = 20 | 721 | 1155

const TRANSFER = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const SINGLE = 'c3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
const BATCH = '4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'

type TransferKind = { topic0: string; topic3: 'IS NULL' | 'IS NOT NULL' | null; from: string; to: string }

/**
 * Per standard, each kind of transfer log with the topics its sender and recipient sit in. The
 * conditions are written out as the spool's partial indexes declare them (an engine uses a
 * partial index only for a query that states its condition, with the literal, not a parameter).
 */
const KINDS: Record<TokenStandard, TransferKind[]> = {
  20: [{ topic0: TRANSFER, topic3: 'IS NULL', from: 'topic1', to: 'topic2' }],
  721: [{ topic0: TRANSFER, topic3: 'IS NOT NULL', from: 'topic1', to: 'topic2' }],
  1155: [
    { topic0: SINGLE, topic3: null, from: 'topic2', to: 'topic3' },
    { topic0: BATCH, topic3: null, from: 'topic2', to: 'topic3' },
  ],
}

/** A kind's condition; with `unindexed`, one that keeps the engine off the topic0 index. */
function kindCondition(dialect: Dialect, kind: TransferKind, unindexed = false): string {
  const topic0 = `${unindexed ? dialect.unindexed('topic0') : 'topic0'} = ${dialect.bytes(kind.topic0)}`
  return kind.topic3 ? `${topic0} AND topic3 ${kind.topic3}` : topic0
}

/**
 * The transfer logs of one standard in the range that `holder` sent or received and/or that the
 * token contract `token` emitted, at most `limit` in the order asked: one index walk per side
 * and kind of log, each cut at `limit`, merged here. At least one of `holder` and `token` is set.
 */
export async function transferLogs(
  db: SpoolDb,
  standard: TokenStandard,
  { holder, token, range, limit, newestFirst }: { holder: Uint8Array | null; token: Uint8Array | null; range: BlockRange; limit: number; newestFirst: boolean },
): Promise<FoundLog[]> {
  const order = newestFirst ? 'DESC' : 'ASC'
  const bounds = [txId(range.first, 0), txId(range.last + 1, 0) - 1]
  const walk = (where: string, params: Array<Uint8Array | number>) =>
    db.all<FoundLog>(`SELECT ${WITH_TX} FROM (SELECT * FROM logs WHERE ${where} AND tx_id BETWEEN ? AND ? ORDER BY tx_id ${order}, log_index ${order} LIMIT ?) l ${JOIN}`, ...params, ...bounds, limit)
  const found = new Map<string, FoundLog>()
  for (const kind of KINDS[standard]) {
    const where = kindCondition(db.dialect, kind)
    const sides = holder
      ? [`${where} AND ${kind.from} = ?`, `${where} AND ${kind.to} = ?`].map((side) =>
          walk(token ? `${side} AND address = ?` : side, token ? [topicOfAddress(holder), token] : [topicOfAddress(holder)]),
        )
      : // The token's own logs, off the topic0 index, which holds every token's transfers.
        [walk(`address = ? AND ${kindCondition(db.dialect, kind, true)}`, [token!])]
    for (const log of (await Promise.all(sides)).flat()) found.set(`${log.txId}:${log.logIndex}`, log)
  }
  const sign = newestFirst ? -1 : 1
  return [...found.values()].sort((a, b) => sign * (a.txId - b.txId || a.logIndex - b.logIndex)).slice(0, limit)
}

/** An address as an indexed topic holds it: 12 zero bytes, then the 20. */
export function topicOfAddress(address: Uint8Array): Uint8Array {
  const topic = new Uint8Array(32)
  topic.set(address, 12)
  return topic
}

/** A log's own fields, without its transaction's or block's. */
export type BareLog = Pick<FoundLog, 'txId' | 'logIndex' | 'blockNumber' | 'address' | 'topic0' | 'topic1' | 'topic2' | 'topic3' | 'data'>

/**
 * The logs with `topic0` (and emitted by `address`, when given) of the transactions after
 * `afterTxId` up to `lastTxId`, oldest first, for a reader that walks them all in pages: each
 * page is one walk of the index of topic0 (or of the address) from where the last one stopped,
 * never an offset. A page holds whole transactions: at least `limit` logs unless the walk has
 * reached `lastTxId`, and the next page starts after its last transaction's id.
 */
export async function logsWithTopicAfter(
  db: SpoolDb,
  { topic0, address, afterTxId, lastTxId, limit }: { topic0: Uint8Array; address: Uint8Array | null; afterTxId: number; lastTxId: number; limit: number },
): Promise<BareLog[]> {
  const select = `SELECT ${LOG} FROM logs l WHERE topic0 = ?${address ? ' AND address = ?' : ''}`
  const keys: Array<Uint8Array | number> = address ? [topic0, address] : [topic0]
  const page = await db.all<BareLog>(`${select} AND tx_id > ? AND tx_id <= ? ORDER BY tx_id, log_index LIMIT ?`, ...keys, afterTxId, lastTxId, limit)
  if (page.length < limit) return page
  // The page may end inside a transaction: its remaining logs complete it.
  const last = page.at(-1)!
  const rest = await db.all<BareLog>(`${select} AND tx_id = ? AND log_index > ? ORDER BY log_index`, ...keys, last.txId, last.logIndex)
  return rest.length === 0 ? page : [...page, ...rest]
}
