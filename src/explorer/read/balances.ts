import type { Database } from 'bun:sqlite'
import type { Page } from '../paging.ts'
import { tokenIdFromKey } from '../transfers.ts'

// Who holds each ERC-20 (explorer_balances, kept by the explorer stream from the transfer logs).

/** A holder of a token and its balance (decimal, in base units). */
export type TokenHolder = { holder: Uint8Array; balance: string }

/** The holders of `token`, largest balance first (ties by address), paged: a walk of the (token, balance) index. */
export function tokenHolders(db: Database, token: Uint8Array, { limit, offset }: Page): TokenHolder[] {
  return db
    .query<{ holder: Uint8Array; balance: string }, [Uint8Array, number, number]>(
      'SELECT holder, balance FROM explorer_balances WHERE token = ? ORDER BY balance DESC, holder DESC LIMIT ? OFFSET ?',
    )
    .all(token, limit, offset)
    .map((row) => ({ holder: row.holder, balance: tokenIdFromKey(row.balance) }))
}

/** How many addresses hold some of `token`. */
export function holderCount(db: Database, token: Uint8Array): number {
  return db.query<{ n: number }, [Uint8Array]>('SELECT count(*) AS n FROM explorer_balances WHERE token = ?').get(token)!.n
}
