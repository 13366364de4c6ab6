import type { Queries, SpoolDb } from '../engine.ts'

// Blocks and mini-blocks as the spool holds them. Hashes and addresses are the raw bytes; wei
// amounts decimal strings; lists are newest first unless a function says otherwise.

/** A page of a list: at most `limit` rows after skipping `offset`. */
export type Page = { limit: number; offset?: number }

/** A block's header fields that lists and counters need. */
export type BlockHeader = { number: number; hash: Uint8Array; timestamp: number; gasUsed: number; txCount: number }
/** A block as a list shows it: its header and how many mini-blocks it was cut into. */
export type BlockSummary = BlockHeader & { miniCount: number }
/** A block in full. `baseFee` is wei as a decimal string. */
export type Block = BlockSummary & { parentHash: Uint8Array; miner: Uint8Array | null; gasLimit: number; baseFee: string | null; size: number | null }
/** A mini-block: on a node without them, each block is its own (its time in microseconds). */
export type Mini = { number: number; blockNumber: number; hash: Uint8Array | null; timestampUs: number; txCount: number }

const HEADER = 'b.number, b.hash, b.timestamp, b.gas_used AS "gasUsed", b.tx_count AS "txCount"'
const SUMMARY = `${HEADER}, (SELECT count(*) FROM minis m WHERE m.block_number = b.number) AS "miniCount"`
const FULL = `${SUMMARY}, b.parent_hash AS "parentHash", b.miner, b.gas_limit AS "gasLimit", b.base_fee AS "baseFee", b.size`
const MINI = 'number, block_number AS "blockNumber", hash, timestamp_us AS "timestampUs", tx_count AS "txCount"'

export async function blockByNumber(db: SpoolDb, number: number): Promise<Block | null> {
  return db.get<Block>(`SELECT ${FULL} FROM blocks b WHERE b.number = ?`, number)
}

/** The hash the spool holds for block `number`, or null when it holds no such block. */
export async function blockHash(db: SpoolDb, number: number): Promise<Uint8Array | null> {
  return (await db.get<{ hash: Uint8Array }>('SELECT hash FROM blocks WHERE number = ?', number))?.hash ?? null
}

/** The newest blocks; with `active`, only those that carried transactions (an indexed walk). */
export async function latestBlocks(db: SpoolDb, { limit, offset = 0, active = false }: Page & { active?: boolean }): Promise<BlockSummary[]> {
  return db.all<BlockSummary>(`SELECT ${SUMMARY} FROM blocks b ${active ? 'WHERE b.tx_count > 0' : ''} ORDER BY b.number DESC LIMIT ? OFFSET ?`, limit, offset)
}

/** As latestBlocks, the headers alone, without counting each block's mini-blocks: for figures over many blocks. */
export async function latestBlockHeaders(db: SpoolDb, { limit, offset = 0, active = false }: Page & { active?: boolean }): Promise<BlockHeader[]> {
  return db.all<BlockHeader>(`SELECT ${HEADER} FROM blocks b ${active ? 'WHERE b.tx_count > 0' : ''} ORDER BY b.number DESC LIMIT ? OFFSET ?`, limit, offset)
}

/**
 * The headers of the blocks the spool holds from `first` to `last` (both included), oldest first:
 * for a block stream reading the spool forward, on the writer's connection inside its pass.
 */
export function blockHeaders(db: Queries, first: number, last: number): Promise<BlockHeader[]> {
  return db.all<BlockHeader>(`SELECT ${HEADER} FROM blocks b WHERE b.number BETWEEN ? AND ? ORDER BY b.number`, first, last)
}

/** The times (unix seconds) of the newest `count` blocks, newest first. */
export async function recentBlockTimes(db: SpoolDb, count: number): Promise<number[]> {
  return (await db.all<{ timestamp: number }>('SELECT timestamp FROM blocks ORDER BY number DESC LIMIT ?', count)).map((row) => row.timestamp)
}

export async function blockCount(db: SpoolDb): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM blocks'))!.n
}

export async function miniByNumber(db: SpoolDb, number: number): Promise<Mini | null> {
  return db.get<Mini>(`SELECT ${MINI} FROM minis WHERE number = ?`, number)
}

export async function miniByHash(db: SpoolDb, hash: Uint8Array): Promise<Mini | null> {
  return db.get<Mini>(`SELECT ${MINI} FROM minis WHERE hash = ?`, hash)
}

/** The mini-blocks block `number` was cut into, in order (none when the spool lacks the block). */
export async function minisOfBlock(db: SpoolDb, number: number): Promise<Mini[]> {
  return db.all<Mini>(`SELECT ${MINI} FROM minis WHERE block_number = ? ORDER BY number`, number)
}

export async function latestMinis(db: SpoolDb, { limit, offset = 0 }: Page): Promise<Mini[]> {
  return db.all<Mini>(`SELECT ${MINI} FROM minis ORDER BY number DESC LIMIT ? OFFSET ?`, limit, offset)
}

/** The newest mini-block, or null before the first. */
export async function latestMini(db: SpoolDb): Promise<Mini | null> {
  return db.get<Mini>(`SELECT ${MINI} FROM minis ORDER BY number DESC LIMIT 1`)
}

/** The times (unix microseconds) of the newest `count` mini-blocks, newest first. */
export async function recentMiniTimes(db: SpoolDb, count: number): Promise<number[]> {
  return (await db.all<{ at: number }>('SELECT timestamp_us AS at FROM minis ORDER BY number DESC LIMIT ?', count)).map((row) => row.at)
}

/**
 * The index in its block of the mini-block's first transaction: a block cut into several
 * mini-blocks hands them its transactions in order, so this is the count of the earlier ones'.
 */
export async function miniFirstTxIndex(db: SpoolDb, mini: Pick<Mini, 'number' | 'blockNumber'>): Promise<number> {
  return (await db.get<{ n: number | null }>('SELECT CAST(sum(tx_count) AS BIGINT) AS n FROM minis WHERE block_number = ? AND number < ?', mini.blockNumber, mini.number))?.n ?? 0
}

export async function miniCount(db: SpoolDb): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM minis'))!.n
}

/** A run of blocks the spool never got: the node had lost them, and the operator chose to move on. */
export type HistoryGap = { from: number; to: number }

/** The spool's recorded holes, oldest first. */
export async function historyGaps(db: SpoolDb): Promise<HistoryGap[]> {
  return db.all<HistoryGap>(HISTORY_GAPS_SQL)
}

/** The spool's recorded holes, oldest first, in SQL both engines take (the writer reads them on its own connection). */
export const HISTORY_GAPS_SQL = 'SELECT from_block AS "from", to_block AS "to" FROM history_gaps ORDER BY from_block'

/** The last recorded hole that starts at or below a block (`?`), in SQL both engines take; it holds the block if it ends at or above it. */
export const GAP_BELOW_SQL = 'SELECT from_block AS "from", to_block AS "to" FROM history_gaps WHERE from_block <= ? ORDER BY from_block DESC LIMIT 1'

/** The recorded hole that holds block `number`, or null. */
export async function gapHolding(db: SpoolDb, number: number): Promise<HistoryGap | null> {
  const gap = await db.get<HistoryGap>(GAP_BELOW_SQL, number)
  return gap && gap.to >= number ? gap : null
}

/** The number of the block with `hash` (its unique index), or null when the spool holds none. */
export async function blockNumberByHash(db: SpoolDb, hash: Uint8Array): Promise<number | null> {
  return (await db.get<{ number: number }>('SELECT number FROM blocks WHERE hash = ?', hash))?.number ?? null
}
