import type { Database } from 'bun:sqlite'
import type { Page } from '../paging.ts'
import { decodeTotals, NO_TOTALS, type AccountCounts, type TallyTotals } from '../tallyStream.ts'

// The tally as the `tally` stream keeps it (tallyStream.ts): the chain's totals, each account's
// counts, who created each contract. Addresses are the 20 bytes the spool keys on.

/** The chain's totals; all zero before the stream's first block. */
export function tallyTotals(db: Database): TallyTotals {
  const row = db.query<Record<string, unknown>, []>('SELECT blocks, transactions, gas_used, wallets, accounts, contracts FROM explorer_totals WHERE id = 0').get()
  return row ? decodeTotals(row) : NO_TOTALS
}

/** What `address` sent, received and sent to itself; zeros for an account never seen. */
export function accountCounts(db: Database, address: Uint8Array): AccountCounts {
  return (
    db.query<AccountCounts, [Uint8Array]>('SELECT sent, received, self FROM explorer_accounts WHERE address = ?').get(address) ?? { sent: 0, received: 0, self: 0 }
  )
}

/** An account of the accounts list: its counts, its transaction count (a self-send once), and whether it is a contract seen created. */
export type RankedAccount = { address: Uint8Array; sent: number; received: number; txCount: number; contract: boolean }

/** The accounts busiest first (by transaction count), ties by address, paged: an index walk. */
export function rankedAccounts(db: Database, { limit, offset }: Page): RankedAccount[] {
  return db
    .query<{ address: Uint8Array; sent: number; received: number; txCount: number; contract: number }, [number, number]>(
      `SELECT a.address, a.sent, a.received, a.total AS txCount,
              EXISTS (SELECT 1 FROM explorer_contracts c WHERE c.contract = a.address) AS contract
         FROM explorer_accounts a ORDER BY a.total DESC, a.address LIMIT ? OFFSET ?`,
    )
    .all(limit, offset)
    .map((row) => ({ ...row, contract: row.contract === 1 }))
}

/** Who created the contract at `address`, and in which transaction; null when none was seen created. */
export function contractCreation(db: Database, address: Uint8Array): { creator: Uint8Array; txId: number } | null {
  return db.query<{ creator: Uint8Array; txId: number }, [Uint8Array]>('SELECT creator, tx_id AS txId FROM explorer_contracts WHERE contract = ?').get(address)
}

/** The first `limit` contracts `creator` created, in chain order. */
export function contractsCreatedBy(db: Database, creator: Uint8Array, limit: number): Array<{ contract: Uint8Array; txId: number }> {
  return db
    .query<{ contract: Uint8Array; txId: number }, [Uint8Array, number]>(
      'SELECT contract, tx_id AS txId FROM explorer_contracts WHERE creator = ? ORDER BY tx_id, seq LIMIT ?',
    )
    .all(creator, limit)
}
