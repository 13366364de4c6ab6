import type { SpoolDb } from '../../spool/engine.ts'
import type { Page } from '../paging.ts'
import { tokenIdFromKey } from '../transfers.ts'

// Who holds each ERC-20 (explorer_balances, kept by the explorer stream from the transfer logs).

/** A holder of a token and its balance (decimal, in base units). */
export type TokenHolder = { holder: Uint8Array; balance: string }

/** The holders of `token`, largest balance first (ties by address), paged: a walk of the (token, balance) index. */
export async function tokenHolders(db: SpoolDb, token: Uint8Array, { limit, offset }: Page): Promise<TokenHolder[]> {
  return (
    await db.all<{ holder: Uint8Array; balance: string }>('SELECT holder, balance FROM explorer_balances WHERE token = ? ORDER BY balance DESC, holder DESC LIMIT ? OFFSET ?', token, limit, offset)
  ).map((row) => ({ holder: row.holder, balance: tokenIdFromKey(row.balance) }))
}

/** How many addresses hold some of `token`. */
export async function holderCount(db: SpoolDb, token: Uint8Array): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(*) AS n FROM explorer_balances WHERE token = ?', token))!.n
}
