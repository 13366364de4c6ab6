import type { Hex } from 'viem'
import { blob } from '../eth/bytes.ts'
import { txId } from './codec.ts'
import type { Queries, SpoolTx, SpoolWriter } from './engine.ts'
import { boundHistory, exactAncestor, type HistoryBound } from './kit/bound.ts'
import { rollbackTables, type StreamTable } from './kit/tables.ts'
import { keepingHistoryFrom } from './kit/versioned.ts'
import type { Migration } from './migrations.ts'
import { getCursor } from './store.ts'
import type { TxLog } from './read/transactions.ts'

/** A pass takes at most 5000 logs. */
export const MAX_LOGS_PER_PASS = 5000
/** Once caught up, a stream sleeps two seconds between passes. */
export const CAUGHT_UP_SLEEP_MS = 2000

/** A log as a derived stream reads it from the spool: the transaction's log, and where it stands. */
export type SpoolLog = TxLog & { txId: number; blockNumber: number }

/**
 * What every derived stream declares, whatever drives it: its name (its cursor's key), the
 * migrations that make its tables, and every table it writes, by kind (event rows, rows created
 * at a block, versioned state). When the chain reorganises, the spool rolls the declared tables
 * back itself (kit/tables.ts): a stream writes no rollback code, so every table it writes must be
 * declared.
 */
type StreamBase = {
  name: string
  migrations: Migration[]
  tables: StreamTable[]
}

/**
 * A stream driven by logs: its own cursor over the spool's logs, and the one thing it does:
 * apply the logs of its topics in chain order, inside a transaction the framework owns (`tx`,
 * on either engine: a stream's SQL is the one both take, engine.ts).
 */
export type LogStream = StreamBase & {
  kind?: 'logs'
  /** The event signatures (topic0) the stream reads; other logs never reach it. */
  topics: Hex[]
  apply: (tx: SpoolTx, logs: SpoolLog[]) => Promise<void>
}

/**
 * A stream driven by blocks: a pass hands it a run of whole blocks after its cursor, and it
 * reads what it needs of them (headers, transactions, traces) through the read API, inside the
 * transaction that advances its cursor. For what every block says, not what some logs say: the
 * explorer's tally of transactions per account.
 */
export type BlockStream = StreamBase & {
  kind: 'blocks'
  /** Derives blocks `fromBlock` to `toBlock` (both included; the spool may hold none below its start block). */
  apply: (tx: SpoolTx, fromBlock: number, toBlock: number) => Promise<void>
}

/** A derived stream, handed to the spool by the composition root. */
export type StreamDefinition = LogStream | BlockStream

export type StreamCursor = { txId: number; logIndex: number; blockNumber: number; updatedAt: number }

const BEFORE_EVERYTHING: StreamCursor = { txId: -1, logIndex: -1, blockNumber: -1, updatedAt: 0 }
const LAST_LOG_INDEX = 2 ** 31

/** A stream's cursor (`?`: its name), in SQL both engines take; its row read by streamCursorOf. */
export const STREAM_CURSOR_SQL = 'SELECT tx_id, log_index, block_number, updated_at FROM stream_cursors WHERE name = ?'

export type StreamCursorRow = { tx_id: number; log_index: number; block_number: number; updated_at: number }

/** A stream's cursor from its row, or from none before its first pass. */
export function streamCursorOf(row: StreamCursorRow | null): StreamCursor {
  return row ? { txId: row.tx_id, logIndex: row.log_index, blockNumber: row.block_number, updatedAt: row.updated_at } : BEFORE_EVERYTHING
}

export async function readStreamCursor(db: Pick<Queries, 'get'>, name: string): Promise<StreamCursor> {
  return streamCursorOf(await db.get<StreamCursorRow>(STREAM_CURSOR_SQL, name))
}

/** A stream's cursor set (`?`: its name, tx id, log index, block, the time), in SQL both engines take. */
export const STREAM_CURSOR_UPSERT_SQL = `INSERT INTO stream_cursors (name, tx_id, log_index, block_number, updated_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET tx_id = excluded.tx_id, log_index = excluded.log_index,
    block_number = excluded.block_number, updated_at = excluded.updated_at`

async function writeStreamCursor(tx: SpoolTx, name: string, cursor: Omit<StreamCursor, 'updatedAt'>): Promise<void> {
  await tx.run(STREAM_CURSOR_UPSERT_SQL, name, cursor.txId, cursor.logIndex, cursor.blockNumber, Date.now())
}

/** The position just after every log of `block`. */
const endOfBlock = (block: number) => ({ txId: txId(block + 1, 0) - 1, logIndex: LAST_LOG_INDEX, blockNumber: block })

/**
 * What a pass did: the logs it carried (a log stream), or the blocks and their transactions (a
 * block stream); whether it has caught up with the spool; the cursor it left.
 */
export type PassResult = { logs: number; blocks?: number; txs?: number; caughtUp: boolean; cursor: StreamCursor }

/** How much a block stream's pass carries: about `txs` transactions (always one whole block at least) and at most `blocks` blocks. */
export type BlockPassLimits = { txs: number; blocks: number }

export const BLOCK_PASS_LIMITS: BlockPassLimits = { txs: 10_000, blocks: 10_000 }

/**
 * What a pass may carry: up to `logs` of a log stream's logs, a block stream's blocks within
 * `blocks`; and from which block on it keeps the history of versioned rows (a rollback never
 * reaches below the deepest reorganisation the spool follows; everything, unless told).
 */
export type PassOptions = { logs?: number; blocks?: BlockPassLimits; historyFrom?: number }

/**
 * One pass of one stream, read, applied and the cursor advanced in one transaction, so a crash
 * repeats the pass and never skips it: a log stream's logs after its cursor, or a run of whole
 * blocks after a block stream's, no later than the spool's cursor.
 */
export function runPass(writer: SpoolWriter, stream: StreamDefinition, spoolCursor: number, options: PassOptions = {}): Promise<PassResult> {
  const { logs = MAX_LOGS_PER_PASS, blocks = BLOCK_PASS_LIMITS, historyFrom = Number.NEGATIVE_INFINITY } = options
  return writer.transaction(async (tx) => {
    // Never past the spool's cursor as it stands in this transaction (a rollback since the caller read it).
    const head = Math.min(spoolCursor, await getCursor(tx))
    return keepingHistoryFrom(tx, historyFrom, () => (stream.kind === 'blocks' ? runBlockPass(tx, stream, head, blocks) : runLogPass(tx, stream, head, logs)))
  })
}

/** How many logs of one signature a merge reads at a time. */
const LOGS_A_READ = 500

/** One signature's logs after a position, read LOGS_A_READ at a time as the merge takes them. */
class LogRange {
  private rows: SpoolLog[] = []
  private at = 0
  private done = false

  constructor(
    private readonly tx: Queries,
    private readonly topic: Uint8Array,
    private after: { txId: number; logIndex: number },
    private readonly beforeTx: number,
  ) {}

  /** The next log, or null once there is none. */
  async peek(): Promise<SpoolLog | null> {
    if (this.at < this.rows.length) return this.rows[this.at]!
    if (this.done) return null
    this.rows = await this.tx.all<SpoolLog>(
      `SELECT tx_id AS "txId", log_index AS "logIndex", block_number AS "blockNumber", address, topic0, topic1, topic2, topic3, data
         FROM logs WHERE topic0 = ? AND (tx_id, log_index) > (?, ?) AND tx_id < ? ORDER BY tx_id, log_index LIMIT ${LOGS_A_READ}`,
      this.topic,
      this.after.txId,
      this.after.logIndex,
      this.beforeTx,
    )
    this.at = 0
    this.done = this.rows.length < LOGS_A_READ
    const last = this.rows.at(-1)
    if (last) this.after = last
    return this.rows[0] ?? null
  }

  take(): void {
    this.at++
  }
}

/**
 * The first `limit` logs of the `topics` event signatures after a position and before a
 * transaction id, in chain order. Each signature is its own range of the spool's (topic0, tx_id,
 * log_index) index, read a page at a time, and the ranges are merged here: a pass reads the logs
 * it carries and at most a page more per signature, whatever the mix. (One `topic0 IN (...)` with
 * the position as an OR gave SQLite no range to seek, and a LIMIT of `limit` on each range read
 * and sorted up to `limit` rows of every signature.)
 */
async function logsAfter(tx: Queries, topics: readonly Hex[], after: { txId: number; logIndex: number }, beforeTx: number, limit: number): Promise<SpoolLog[]> {
  const ranges = topics.map((topic) => new LogRange(tx, blob(topic), after, beforeTx))
  const heads: Array<{ next: SpoolLog; range: LogRange }> = []
  for (const range of ranges) {
    const next = await range.peek()
    if (next) heads.push({ next, range })
  }
  const logs: SpoolLog[] = []
  while (logs.length < limit && heads.length > 0) {
    let earliest = 0
    for (let index = 1; index < heads.length; index++) {
      const a = heads[index]!.next
      const b = heads[earliest]!.next
      if (a.txId < b.txId || (a.txId === b.txId && a.logIndex < b.logIndex)) earliest = index
    }
    const head = heads[earliest]!
    logs.push(head.next)
    head.range.take()
    const following = await head.range.peek()
    if (following) head.next = following
    else heads.splice(earliest, 1)
  }
  return logs
}

async function runLogPass(tx: SpoolTx, stream: LogStream, spoolCursor: number, maxLogs: number): Promise<PassResult> {
  const cursor = await readStreamCursor(tx, stream.name)
  if (cursor.blockNumber >= spoolCursor) return { logs: 0, caughtUp: true, cursor }
  const logs = await logsAfter(tx, stream.topics, cursor, txId(spoolCursor + 1, 0), maxLogs)
  const caughtUp = logs.length < maxLogs
  const last = logs.at(-1)
  // A full pass stops at its last log; a short one has seen everything up to the spool's cursor.
  const next = caughtUp ? endOfBlock(spoolCursor) : { txId: last!.txId, logIndex: last!.logIndex, blockNumber: last!.blockNumber - 1 }
  if (logs.length > 0) await stream.apply(tx, logs)
  await writeStreamCursor(tx, stream.name, next)
  return { logs: logs.length, caughtUp, cursor: { ...next, updatedAt: Date.now() } }
}

/**
 * The blocks after a block stream's cursor, as many whole ones as fit in the limits, read from
 * their headers' transaction counts (the blocks table's key, so the plan costs what it carries).
 * A pass never stops inside a block, so the cursor always stands at the end of one.
 */
async function runBlockPass(tx: SpoolTx, stream: BlockStream, spoolCursor: number, limits: BlockPassLimits): Promise<PassResult> {
  const cursor = await readStreamCursor(tx, stream.name)
  if (cursor.blockNumber >= spoolCursor) return { logs: 0, blocks: 0, txs: 0, caughtUp: true, cursor }
  const candidates = await tx.all<{ number: number; txCount: number }>(
    'SELECT number, tx_count AS "txCount" FROM blocks WHERE number > ? AND number <= ? ORDER BY number LIMIT ?',
    cursor.blockNumber,
    spoolCursor,
    limits.blocks,
  )
  let last = cursor.blockNumber
  let blocks = 0
  let txs = 0
  for (const block of candidates) {
    if (blocks > 0 && txs + block.txCount > limits.txs) break
    last = block.number
    blocks++
    txs += block.txCount
  }
  // No block held after the cursor (a spool that starts above it): everything up to its cursor is seen.
  const through = blocks === 0 ? spoolCursor : last
  const next = endOfBlock(through)
  if (blocks > 0) await stream.apply(tx, cursor.blockNumber + 1, through)
  await writeStreamCursor(tx, stream.name, next)
  return { logs: 0, blocks, txs, caughtUp: through >= spoolCursor, cursor: { ...next, updatedAt: Date.now() } }
}

/**
 * Called inside the spool's rollback transaction: the stream forgets what came after `ancestor`.
 * Where its history above `ancestor` was folded into the reset point's (kit/bound.ts), it goes
 * back to the reset point instead and derives the blocks in between again from the spool.
 */
export async function rollbackStream(tx: SpoolTx, stream: StreamDefinition, ancestor: number): Promise<void> {
  const cursor = await readStreamCursor(tx, stream.name)
  if (cursor.txId < txId(ancestor + 1, 0)) return
  const to = await exactAncestor(tx, stream.name, ancestor)
  await rollbackTables(tx, stream.tables, to)
  await writeStreamCursor(tx, stream.name, endOfBlock(to))
}

/**
 * One batch of bounding the history of the stream's versioned tables (kit/bound.ts): a rollback
 * never reaches below the deepest reorganisation the spool follows, or else to the reset point,
 * so older history only grows the file. Gives whether more is left for another batch.
 */
export function boundStreamHistory(writer: SpoolWriter, stream: StreamDefinition, bound: HistoryBound, batchRows?: number): Promise<boolean> {
  return boundHistory(writer, stream.name, stream.tables, bound, batchRows)
}
