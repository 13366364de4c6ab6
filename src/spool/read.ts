import type { Database } from 'bun:sqlite'

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
