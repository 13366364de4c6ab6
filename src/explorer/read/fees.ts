import type { SpoolDb } from '../../spool/engine.ts'

// The fee router as the `fees` stream keeps it (feeStream.ts): its settings, its running totals,
// its movements. Routers are the 20 bytes the spool keys on.

export type FeeRouterRow = { treasury: Uint8Array; token: Uint8Array; burnBps: number; burnAddress: Uint8Array; blockNumber: number }

/** The router's settings from its deployment event; null before the stream has seen it. */
export async function feeRouterSettings(db: SpoolDb, router: Uint8Array): Promise<FeeRouterRow | null> {
  return db.get<FeeRouterRow>('SELECT treasury, token, burn_bps AS "burnBps", burn_address AS "burnAddress", block_number AS "blockNumber" FROM explorer_fee_routers WHERE router = ?', router)
}

export type FeeTotal = { amount: bigint; count: number }

/** Every running total of the router, by figure (see feeStream.ts); a figure nothing moved is absent. */
export async function feeTotals(db: SpoolDb, router: Uint8Array): Promise<Map<string, FeeTotal>> {
  const rows = await db.all<{ figure: string; amount: string; count: number }>('SELECT figure, amount, count FROM explorer_fee_totals WHERE router = ?', router)
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
export async function latestFeeMovements(db: SpoolDb, router: Uint8Array, limit: number): Promise<FeeMovement[]> {
  return db.all<FeeMovement>(
    `SELECT tx_id AS "txId", log_index AS "logIndex", block_number AS "blockNumber", kind, source, account, eth, token,
              eth_burned AS "ethBurned", token_burned AS "tokenBurned"
         FROM explorer_fee_movements WHERE router = ? ORDER BY tx_id DESC, log_index DESC LIMIT ?`,
    router,
    limit,
  )
}
