import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { Hex } from 'viem'
import { blob } from '../eth/bytes.ts'
import { txId } from './codec.ts'
import { rollbackTables, type StreamTable } from './kit/tables.ts'
import type { Migration } from './migrations.ts'
import type { TxLog } from './read/transactions.ts'

/** Spec 02 "Indexer streams": a pass takes at most 5000 logs. */
export const MAX_LOGS_PER_PASS = 5000
/** Spec 02: once caught up, a stream sleeps two seconds between passes. */
export const CAUGHT_UP_SLEEP_MS = 2000

/** A log as a derived stream reads it from the spool: the transaction's log, and where it stands. */
export type SpoolLog = TxLog & { txId: number; txHash: Uint8Array; blockNumber: number }

/**
 * A derived stream, handed to the spool by the composition root: its own tables (created by its
 * migrations and declared in `tables`), its own cursor over the spool's logs, and the one thing
 * it does: apply logs in chain order, inside a transaction the framework owns. When the chain
 * reorganises, the spool rolls the declared tables back itself (kit/tables.ts): a stream writes
 * no rollback code, so every table it writes must be declared.
 */
export type StreamDefinition = {
  name: string
  migrations: Migration[]
  /** The event signatures (topic0) the stream reads; other logs never reach it. */
  topics: Hex[]
  /** Every table the stream writes, by kind: event rows, rows created at a block, versioned state. */
  tables: StreamTable[]
  apply: (db: Database, logs: SpoolLog[]) => void
}

export type StreamCursor = { txId: number; logIndex: number; blockNumber: number; updatedAt: number }

const BEFORE_EVERYTHING: StreamCursor = { txId: -1, logIndex: -1, blockNumber: -1, updatedAt: 0 }
const LAST_LOG_INDEX = 2 ** 31

export function readStreamCursor(db: Database, name: string): StreamCursor {
  const row = db
    .query<{ tx_id: number; log_index: number; block_number: number; updated_at: number }, [string]>(
      'SELECT tx_id, log_index, block_number, updated_at FROM stream_cursors WHERE name = ?',
    )
    .get(name)
  return row ? { txId: row.tx_id, logIndex: row.log_index, blockNumber: row.block_number, updatedAt: row.updated_at } : BEFORE_EVERYTHING
}

function writeStreamCursor(db: Database, name: string, cursor: Omit<StreamCursor, 'updatedAt'>): void {
  db.run(
    `INSERT INTO stream_cursors (name, tx_id, log_index, block_number, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(name) DO UPDATE SET tx_id = excluded.tx_id, log_index = excluded.log_index,
       block_number = excluded.block_number, updated_at = excluded.updated_at`,
    [name, cursor.txId, cursor.logIndex, cursor.blockNumber, Date.now()],
  )
}

/** The position just after every log of `block`. */
const endOfBlock = (block: number) => ({ txId: txId(block + 1, 0) - 1, logIndex: LAST_LOG_INDEX, blockNumber: block })

export type PassResult = { logs: number; caughtUp: boolean; cursor: StreamCursor }

/**
 * One pass of one stream: up to 5000 of its logs after its cursor and no later than the spool's
 * cursor, applied and the cursor advanced in one transaction, so a crash repeats the pass and
 * never skips it.
 */
export function runPass(db: Database, stream: StreamDefinition, spoolCursor: number, maxLogs = MAX_LOGS_PER_PASS): PassResult {
  const cursor = readStreamCursor(db, stream.name)
  if (cursor.blockNumber >= spoolCursor) return { logs: 0, caughtUp: true, cursor }
  const placeholders = stream.topics.map(() => '?').join(', ')
  const logs = db
    .query<SpoolLog, SQLQueryBindings[]>(
      `SELECT l.tx_id AS txId, t.hash AS txHash, l.log_index AS logIndex, l.block_number AS blockNumber,
              l.address, l.topic0, l.topic1, l.topic2, l.topic3, l.data
         FROM logs l JOIN txs t ON t.id = l.tx_id
        WHERE l.topic0 IN (${placeholders})
          AND (l.tx_id > ? OR (l.tx_id = ? AND l.log_index > ?))
          AND l.block_number <= ?
        ORDER BY l.tx_id, l.log_index
        LIMIT ${maxLogs}`,
    )
    .all(...stream.topics.map((topic) => blob(topic)), cursor.txId, cursor.txId, cursor.logIndex, spoolCursor)
  const caughtUp = logs.length < maxLogs
  const last = logs.at(-1)
  // A full pass stops at its last log; a short one has seen everything up to the spool's cursor.
  const next = caughtUp ? endOfBlock(spoolCursor) : { txId: last!.txId, logIndex: last!.logIndex, blockNumber: last!.blockNumber - 1 }
  db.transaction(() => {
    if (logs.length > 0) stream.apply(db, logs)
    writeStreamCursor(db, stream.name, next)
  })()
  return { logs: logs.length, caughtUp, cursor: { ...next, updatedAt: Date.now() } }
}

/** Called inside the spool's rollback transaction: the stream forgets what came after `ancestor`. */
export function rollbackStream(db: Database, stream: StreamDefinition, ancestor: number): void {
  const cursor = readStreamCursor(db, stream.name)
  if (cursor.txId < txId(ancestor + 1, 0)) return
  rollbackTables(db, stream.tables, ancestor)
  writeStreamCursor(db, stream.name, endOfBlock(ancestor))
}
