import type { Database } from 'bun:sqlite'

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

const HEADER = 'b.number, b.hash, b.timestamp, b.gas_used AS gasUsed, b.tx_count AS txCount'
const SUMMARY = `${HEADER}, (SELECT count(*) FROM minis m WHERE m.block_number = b.number) AS miniCount`
const FULL = `${SUMMARY}, b.parent_hash AS parentHash, b.miner, b.gas_limit AS gasLimit, b.base_fee AS baseFee, b.size`
const MINI = 'number, block_number AS blockNumber, hash, timestamp_us AS timestampUs, tx_count AS txCount'

export function blockByNumber(db: Database, number: number): Block | null {
  return db.query<Block, [number]>(`SELECT ${FULL} FROM blocks b WHERE b.number = ?`).get(number)
}

/** The hash the spool holds for block `number`, or null when it holds no such block. */
export function blockHash(db: Database, number: number): Uint8Array | null {
  return db.query<{ hash: Uint8Array }, [number]>('SELECT hash FROM blocks WHERE number = ?').get(number)?.hash ?? null
}

/** The newest blocks; with `active`, only those that carried transactions (an indexed walk). */
export function latestBlocks(db: Database, { limit, offset = 0, active = false }: Page & { active?: boolean }): BlockSummary[] {
  return db
    .query<BlockSummary, [number, number]>(`SELECT ${SUMMARY} FROM blocks b ${active ? 'WHERE b.tx_count > 0' : ''} ORDER BY b.number DESC LIMIT ? OFFSET ?`)
    .all(limit, offset)
}

/** As latestBlocks, the headers alone, without counting each block's mini-blocks: for figures over many blocks. */
export function latestBlockHeaders(db: Database, { limit, offset = 0, active = false }: Page & { active?: boolean }): BlockHeader[] {
  return db
    .query<BlockHeader, [number, number]>(`SELECT ${HEADER} FROM blocks b ${active ? 'WHERE b.tx_count > 0' : ''} ORDER BY b.number DESC LIMIT ? OFFSET ?`)
    .all(limit, offset)
}

/** The headers of the blocks the spool holds from `first` to `last` (both included), oldest first: for reading the spool forward in steps. */
export function blockHeaders(db: Database, first: number, last: number): BlockHeader[] {
  return db.query<BlockHeader, [number, number]>(`SELECT ${HEADER} FROM blocks b WHERE b.number BETWEEN ? AND ? ORDER BY b.number`).all(first, last)
}

/** The times (unix seconds) of the newest `count` blocks, newest first. */
export function recentBlockTimes(db: Database, count: number): number[] {
  return db.query<{ timestamp: number }, [number]>('SELECT timestamp FROM blocks ORDER BY number DESC LIMIT ?').all(count).map((row) => row.timestamp)
}

export function blockCount(db: Database): number {
  return db.query<{ n: number }, []>('SELECT count(*) AS n FROM blocks').get()!.n
}

export function miniByNumber(db: Database, number: number): Mini | null {
  return db.query<Mini, [number]>(`SELECT ${MINI} FROM minis WHERE number = ?`).get(number)
}

export function miniByHash(db: Database, hash: Uint8Array): Mini | null {
  return db.query<Mini, [Uint8Array]>(`SELECT ${MINI} FROM minis WHERE hash = ?`).get(hash)
}

/** The mini-blocks block `number` was cut into, in order (none when the spool lacks the block). */
export function minisOfBlock(db: Database, number: number): Mini[] {
  return db.query<Mini, [number]>(`SELECT ${MINI} FROM minis WHERE block_number = ? ORDER BY number`).all(number)
}

export function latestMinis(db: Database, { limit, offset = 0 }: Page): Mini[] {
  return db.query<Mini, [number, number]>(`SELECT ${MINI} FROM minis ORDER BY number DESC LIMIT ? OFFSET ?`).all(limit, offset)
}

/** The newest mini-block, or null before the first. */
export function latestMini(db: Database): Mini | null {
  return db.query<Mini, []>(`SELECT ${MINI} FROM minis ORDER BY number DESC LIMIT 1`).get()
}

/** The times (unix microseconds) of the newest `count` mini-blocks, newest first. */
export function recentMiniTimes(db: Database, count: number): number[] {
  return db.query<{ at: number }, [number]>('SELECT timestamp_us AS at FROM minis ORDER BY number DESC LIMIT ?').all(count).map((row) => row.at)
}

/**
 * The index in its block of the mini-block's first transaction: a block cut into several
 * mini-blocks hands them its transactions in order, so this is the count of the earlier ones'.
 */
export function miniFirstTxIndex(db: Database, mini: Pick<Mini, 'number' | 'blockNumber'>): number {
  return db.query<{ n: number | null }, [number, number]>('SELECT sum(tx_count) AS n FROM minis WHERE block_number = ? AND number < ?').get(mini.blockNumber, mini.number)?.n ?? 0
}

export function miniCount(db: Database): number {
  return db.query<{ n: number }, []>('SELECT count(*) AS n FROM minis').get()!.n
}

/** A run of blocks the spool never got: the node had lost them, and the operator chose to move on. */
export type HistoryGap = { from: number; to: number }

/** The spool's recorded holes, oldest first. */
export function historyGaps(db: Database): HistoryGap[] {
  return db.query<HistoryGap, []>('SELECT from_block AS "from", to_block AS "to" FROM history_gaps ORDER BY from_block').all()
}

/** The recorded hole that holds block `number`, or null. */
export function gapHolding(db: Database, number: number): HistoryGap | null {
  return db
    .query<HistoryGap, [number]>('SELECT from_block AS "from", to_block AS "to" FROM history_gaps WHERE from_block <= ? ORDER BY from_block DESC LIMIT 1')
    .all(number)
    .find((gap) => gap.to >= number) ?? null
}

/** The number of the block with `hash` (its unique index), or null when the spool holds none. */
export function blockNumberByHash(db: Database, hash: Uint8Array): number | null {
  return db.query<{ number: number }, [Uint8Array]>('SELECT number FROM blocks WHERE hash = ?').get(hash)?.number ?? null
}
