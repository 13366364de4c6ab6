import type { Database } from 'bun:sqlite'

// The fee router as the `fees` stream keeps it (feeStream.ts): its settings, its running totals,
// its movements. Routers are the 20 bytes the spool keys on.

export type FeeRouterRow = { treasury: Uint8Array; token: Uint8Array; burnBps: number; burnAddress: Uint8Array; blockNumber: number }

/** The router's settings from its deployment event; null before the stream has seen it. */
export function feeRouterSettings(db: Database, router: Uint8Array): FeeRouterRow | null {
  return db
    .query<FeeRouterRow, [Uint8Array]>(
      'SELECT treasury, token, burn_bps AS burnBps, burn_address AS burnAddress, block_number AS blockNumber FROM explorer_fee_routers WHERE router = ?',
    )
    .get(router)
}

export type FeeTotal = { amount: bigint; count: number }

/** Every running total of the router, by figure (see feeStream.ts); a figure nothing moved is absent. */
export function feeTotals(db: Database, router: Uint8Array): Map<string, FeeTotal> {
  const rows = db.query<{ figure: string; amount: string; count: number }, [Uint8Array]>('SELECT figure, amount, count FROM explorer_fee_totals WHERE router = ?').all(router)
  return new Map(rows.map((row) => [row.figure, { amount: BigInt(row.amount), count: row.count }]))
}

export type FeeMovement = {
  txId: number
  logIndex: number
  blockNumber: number
  kind: string
  source: number | null
  account: Uint8Array
  eth: string
  token: string
  ethBurned: string | null
  tokenBurned: string | null
}

/** The router's newest movements, newest first. */
export function latestFeeMovements(db: Database, router: Uint8Array, limit: number): FeeMovement[] {
  return db
    .query<FeeMovement, [Uint8Array, number]>(
      `SELECT tx_id AS txId, log_index AS logIndex, block_number AS blockNumber, kind, source, account, eth, token,
              eth_burned AS ethBurned, token_burned AS tokenBurned
         FROM explorer_fee_movements WHERE router = ? ORDER BY tx_id DESC, log_index DESC LIMIT ?`,
    )
    .all(router, limit)
}
