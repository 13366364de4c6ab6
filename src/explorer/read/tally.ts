import type { SpoolDb } from '../../spool/engine.ts'
import type { Page } from '../paging.ts'
import { decodeTotals, NO_TOTALS, type AccountCounts, type TallyTotals } from '../tallyStream.ts'

// The tally as the `tally` stream keeps it (tallyStream.ts): the chain's totals, each account's
// counts, who created each contract. Addresses are the 20 bytes the spool keys on.

/** The chain's totals; all zero before the stream's first block. */
export async function tallyTotals(db: SpoolDb): Promise<TallyTotals> {
  const row = await db.get<Record<string, unknown>>('SELECT blocks, transactions, gas_used, wallets, accounts, contracts FROM explorer_totals WHERE id = 0')
  return row ? decodeTotals(row) : NO_TOTALS
}

/** What `address` sent, received and sent to itself; zeros for an account never seen. */
export async function accountCounts(db: SpoolDb, address: Uint8Array): Promise<AccountCounts> {
  return (await db.get<AccountCounts>('SELECT sent, received, self FROM explorer_accounts WHERE address = ?', address)) ?? { sent: 0, received: 0, self: 0 }
}

/** An account of the accounts list: its counts, its transaction count (a self-send once), and whether it is a contract seen created. */
export type RankedAccount = { address: Uint8Array; sent: number; received: number; txCount: number; contract: boolean }

/** The accounts busiest first (by transaction count), ties by address, paged: an index walk. */
export async function rankedAccounts(db: SpoolDb, { limit, offset }: Page): Promise<RankedAccount[]> {
  return (
    await db.all<{ address: Uint8Array; sent: number; received: number; txCount: number; contract: number }>(
      `SELECT a.address, a.sent, a.received, a.total AS "txCount",
              EXISTS (SELECT 1 FROM explorer_contracts c WHERE c.contract = a.address) AS contract
         FROM explorer_accounts a ORDER BY a.total DESC, a.address LIMIT ? OFFSET ?`,
      limit,
      offset,
    )
  ).map((row) => ({ ...row, contract: row.contract === 1 }))
}

/** Who created the contract at `address`, and in which transaction; null when none was seen created. */
export async function contractCreation(db: SpoolDb, address: Uint8Array): Promise<{ creator: Uint8Array; txId: number } | null> {
  return db.get<{ creator: Uint8Array; txId: number }>('SELECT creator, tx_id AS "txId" FROM explorer_contracts WHERE contract = ?', address)
}

/** The first `limit` contracts `creator` created, in chain order. */
export async function contractsCreatedBy(db: SpoolDb, creator: Uint8Array, limit: number): Promise<Array<{ contract: Uint8Array; txId: number }>> {
  return db.all<{ contract: Uint8Array; txId: number }>('SELECT contract, tx_id AS "txId" FROM explorer_contracts WHERE creator = ? ORDER BY tx_id, seq LIMIT ?', creator, limit)
}
