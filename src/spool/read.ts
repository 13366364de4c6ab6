import type { Database } from 'bun:sqlite'

// The spool's read API: how services read what the spool holds, without touching its tables
// (meta, stream_cursors, blocks, txs, logs, minis, traces) or their indexes. Every function takes
// the spool's read-only connection (Spool.reader). By resource:
//   read/cursors.ts       the spool's head, each derived stream's position and lag, a version of cursors
//   read/blocks.ts        blocks and mini-blocks: by number, hash, range, newest first, counts
//   read/transactions.ts  transactions by id, hash, block, address; their logs and traces; refs for a page of ids
export * from './read/blocks.ts'
export * from './read/cursors.ts'
export * from './read/transactions.ts'

/** A call as the spool holds it: the transaction's input and its block's time in seconds. */
export type SpoolCall = { input: Uint8Array; timestamp: number }

/**
 * The successful transactions `from` sent to `to` whose input starts with `selector` (a function's
 * four bytes), oldest first. Addresses are the 20 bytes the spool keys on.
 */
export function successfulCalls(db: Database, from: Uint8Array, to: Uint8Array, selector: Uint8Array): SpoolCall[] {
  return db
    .query<SpoolCall, [Uint8Array, Uint8Array, Uint8Array]>(
      `SELECT t.input, b.timestamp FROM txs t JOIN blocks b ON b.number = t.block_number
        WHERE t.from_addr = ? AND t.to_addr = ? AND t.status = 1 AND substr(t.input, 1, 4) = ?
        ORDER BY t.id`,
    )
    .all(from, to, selector)
}
