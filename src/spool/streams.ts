import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { Hex } from 'viem'
import { blob } from '../eth/bytes.ts'
import { txId } from './codec.ts'
import { boundHistory, exactAncestor, type HistoryBound } from './kit/bound.ts'
import { rollbackTables, type StreamTable } from './kit/tables.ts'
import { keepingHistoryFrom } from './kit/versioned.ts'
import type { Migration } from './migrations.ts'
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
 * apply the logs of its topics in chain order, inside a transaction the framework owns.
 */
export type LogStream = StreamBase & {
  kind?: 'logs'
  /** The event signatures (topic0) the stream reads; other logs never reach it. */
  topics: Hex[]
  apply: (db: Database, logs: SpoolLog[]) => void
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
  apply: (db: Database, fromBlock: number, toBlock: number) => void
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

export function readStreamCursor(db: Database, name: string): StreamCursor {
  return streamCursorOf(db.query<StreamCursorRow, [string]>(STREAM_CURSOR_SQL).get(name))
}

/** A stream's cursor set (`?`: its name, tx id, log index, block, the time), in SQL both engines take. */
export const STREAM_CURSOR_UPSERT_SQL = `INSERT INTO stream_cursors (name, tx_id, log_index, block_number, updated_at) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (name) DO UPDATE SET tx_id = excluded.tx_id, log_index = excluded.log_index,
    block_number = excluded.block_number, updated_at = excluded.updated_at`

function writeStreamCursor(db: Database, name: string, cursor: Omit<StreamCursor, 'updatedAt'>): void {
  db.run(STREAM_CURSOR_UPSERT_SQL, [name, cursor.txId, cursor.logIndex, cursor.blockNumber, Date.now()])
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
 * One pass of one stream, applied and the cursor advanced in one transaction, so a crash repeats
 * the pass and never skips it: a log stream's logs after its cursor, or a run of whole blocks
 * after a block stream's, no later than the spool's cursor.
 */
export function runPass(db: Database, stream: StreamDefinition, spoolCursor: number, options: PassOptions = {}): PassResult {
  const { logs = MAX_LOGS_PER_PASS, blocks = BLOCK_PASS_LIMITS, historyFrom = Number.NEGATIVE_INFINITY } = options
  return keepingHistoryFrom(db, historyFrom, () => (stream.kind === 'blocks' ? runBlockPass(db, stream, spoolCursor, blocks) : runLogPass(db, stream, spoolCursor, logs)))
}

/**
 * The first `limit` logs of the `topics` event signatures after a position and before a
 * transaction id, in chain order. Each signature is its own range of the spool's (topic0, tx_id,
 * log_index) index, stepped through by a statement of its own, and the ranges are merged here, a
 * row at a time: a pass reads the logs it carries and one more per signature, whatever the mix.
 * (One `topic0 IN (...)` with the position as an OR gave SQLite no range to seek, and a LIMIT on
 * each range in SQL read and sorted up to `limit` rows of every signature.)
 */
function logsAfter(db: Database, topics: readonly Hex[], after: { txId: number; logIndex: number }, beforeTx: number, limit: number): SpoolLog[] {
  const heads: Array<{ next: SpoolLog; rest: Iterator<SpoolLog> }> = []
  const open: Iterator<SpoolLog>[] = []
  try {
    topics.forEach((topic, index) => {
      // The comment makes each signature's statement a distinct one in the connection's cache: ranges are stepped side by side.
      const rows = db
        .query<SpoolLog, SQLQueryBindings[]>(
          `SELECT tx_id AS txId, log_index AS logIndex, block_number AS blockNumber, address, topic0, topic1, topic2, topic3, data
             FROM logs WHERE topic0 = ? AND (tx_id, log_index) > (?, ?) AND tx_id < ? ORDER BY tx_id, log_index /* range ${index} */`,
        )
        .iterate(blob(topic), after.txId, after.logIndex, beforeTx)
      open.push(rows)
      const first = rows.next()
      if (!first.done) heads.push({ next: first.value, rest: rows })
    })
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
      const following = head.rest.next()
      if (following.done) heads.splice(earliest, 1)
      else head.next = following.value
    }
    return logs
  } finally {
    for (const rows of open) rows.return?.()
  }
}

function runLogPass(db: Database, stream: LogStream, spoolCursor: number, maxLogs: number): PassResult {
  const cursor = readStreamCursor(db, stream.name)
  if (cursor.blockNumber >= spoolCursor) return { logs: 0, caughtUp: true, cursor }
  const logs = logsAfter(db, stream.topics, cursor, txId(spoolCursor + 1, 0), maxLogs)
  const caughtUp = logs.length < maxLogs
  const last = logs.at(-1)
  // A full pass stops at its last log; a short one has seen everything up to the spool's cursor.
  const next = caughtUp ? endOfBlock(spoolCursor) : { txId: last!.txId, logIndex: last!.logIndex, blockNumber: last!.blockNumber - 1 }
  db.transaction(() => {
    if (logs.length > 0) stream.apply(db, logs)
    writeStreamCursor(db, stream.name, next)
  }).immediate()
  return { logs: logs.length, caughtUp, cursor: { ...next, updatedAt: Date.now() } }
}

/**
 * The blocks after a block stream's cursor, as many whole ones as fit in the limits, read from
 * their headers' transaction counts (the blocks table's key, so the plan costs what it carries).
 * A pass never stops inside a block, so the cursor always stands at the end of one.
 */
function runBlockPass(db: Database, stream: BlockStream, spoolCursor: number, limits: BlockPassLimits): PassResult {
  const cursor = readStreamCursor(db, stream.name)
  if (cursor.blockNumber >= spoolCursor) return { logs: 0, blocks: 0, txs: 0, caughtUp: true, cursor }
  const candidates = db
    .query<{ number: number; txCount: number }, [number, number, number]>('SELECT number, tx_count AS txCount FROM blocks WHERE number > ? AND number <= ? ORDER BY number LIMIT ?')
    .all(cursor.blockNumber, spoolCursor, limits.blocks)
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
  db.transaction(() => {
    if (blocks > 0) stream.apply(db, cursor.blockNumber + 1, through)
    writeStreamCursor(db, stream.name, next)
  }).immediate()
  return { logs: 0, blocks, txs, caughtUp: through >= spoolCursor, cursor: { ...next, updatedAt: Date.now() } }
}

/**
 * Called inside the spool's rollback transaction: the stream forgets what came after `ancestor`.
 * Where its history above `ancestor` was folded into the reset point's (kit/bound.ts), it goes
 * back to the reset point instead and derives the blocks in between again from the spool.
 */
export function rollbackStream(db: Database, stream: StreamDefinition, ancestor: number): void {
  const cursor = readStreamCursor(db, stream.name)
  if (cursor.txId < txId(ancestor + 1, 0)) return
  const to = exactAncestor(db, stream.name, ancestor)
  rollbackTables(db, stream.tables, to)
  writeStreamCursor(db, stream.name, endOfBlock(to))
}

/**
 * One batch of bounding the history of the stream's versioned tables (kit/bound.ts): a rollback
 * never reaches below the deepest reorganisation the spool follows, or else to the reset point,
 * so older history only grows the file. Gives whether more is left for another batch.
 */
export function boundStreamHistory(db: Database, stream: StreamDefinition, bound: HistoryBound, batchRows?: number): boolean {
  return boundHistory(db, stream.name, stream.tables, bound, batchRows)
}
