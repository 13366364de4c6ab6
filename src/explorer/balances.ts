import { hexOf } from '../eth/words.ts'
import type { SpoolTx } from '../spool/engine.ts'
import { Entities } from '../spool/kit/entities.ts'
import { versionedHistorySql, versionedTable } from '../spool/kit/tables.ts'
import type { Migration } from '../spool/migrations.ts'
import { isZero, tokenIdFromKey, tokenIdKey, type Transfer } from './transfers.ts'

// Who holds each ERC-20 and how much, as its transfer logs tell it (a token page's holders). The
// logs are what a token says it did: a contract that logs a transfer out of an address that never
// received anything would drive a balance below zero, which is kept at zero; the live balanceOf
// stays the truth, this is the ranking. Balances are kept zero-padded to the width of 2^256 (the
// token ids' rule), so the index on (token, balance) is the holders' order, largest first.

export const balanceTable = versionedTable({ table: 'explorer_balances', keys: ['token', 'holder'], columns: ['balance'] })

/** No balance a log can give is above 2^256 - 1; sums past it (a token that logs as it likes) stop there. */
const MAX = 2n ** 256n - 1n

export const balanceMigration = (): Migration => ({
  id: 'explorer/003-balances',
  sql: `
    CREATE TABLE explorer_balances (
      token BLOB NOT NULL,
      holder BLOB NOT NULL,
      balance TEXT NOT NULL,               -- decimal, zero-padded to 78 digits; rows of zero are deleted
      PRIMARY KEY (token, holder)
    ) WITHOUT ROWID;
    CREATE INDEX explorer_balances_rank ON explorer_balances(token, balance);
    ${versionedHistorySql(balanceTable)}
  `,
  // The transfers already copied, summed once: the stream's cursor stands where they end.
  fill: (db) => {
    const sums = new Map<string, { token: Uint8Array; holder: Uint8Array; balance: bigint }>()
    const add = (token: Uint8Array, holder: Uint8Array, delta: bigint) => {
      if (isZero(holder)) return
      const id = `${hexOf(token)}:${hexOf(holder)}`
      const entry = sums.get(id) ?? { token, holder, balance: 0n }
      entry.balance = clamp(entry.balance + delta)
      sums.set(id, entry)
    }
    const rows = db.query<{ token: Uint8Array; from_addr: Uint8Array; to_addr: Uint8Array; amount: string }, []>(
      'SELECT token, from_addr, to_addr, amount FROM explorer_transfers WHERE kind = 20 ORDER BY tx_id, log_index, seq',
    )
    for (const row of rows.iterate()) {
      const amount = BigInt(row.amount)
      add(row.token, row.from_addr, -amount)
      add(row.token, row.to_addr, amount)
    }
    const insert = db.prepare('INSERT INTO explorer_balances (token, holder, balance) VALUES (?, ?, ?)')
    for (const { token, holder, balance } of sums.values()) if (balance > 0n) insert.run(token, holder, tokenIdKey(balance.toString()))
  },
})

const clamp = (value: bigint) => (value < 0n ? 0n : value > MAX ? MAX : value)

/** The balances one pass changes, written at its end (their history kept by the kit). */
export function balancePass(tx: SpoolTx) {
  const balances = new Entities<{ balance: bigint }>(
    tx,
    balanceTable,
    (held) => [tokenIdKey(held.balance.toString())],
    (row) => ({ balance: BigInt(tokenIdFromKey(row.balance as string)) }),
  )
  const entry = (token: Uint8Array, holder: Uint8Array) => ({ id: `${hexOf(token)}:${hexOf(holder)}`, key: [token, holder] })
  const move = async (token: Uint8Array, holder: Uint8Array, delta: bigint, block: number) => {
    if (isZero(holder) || delta === 0n) return
    const { id, key } = entry(token, holder)
    const held = (await balances.find(id, key))?.balance ?? 0n
    const next = clamp(held + delta)
    if (next === held) return
    if (next === 0n) return balances.remove(id, key, block)
    ;(await balances.edit(id, key, block, () => ({ balance: next })))!.balance = next
  }
  return {
    /** Reads together the balances `transfers` (ERC-20 movements) will move. */
    preload: (transfers: readonly Transfer[]) =>
      balances.preload(transfers.flatMap((transfer) => [transfer.from, transfer.to].filter((holder) => !isZero(holder)).map((holder) => entry(transfer.token, holder)))),
    /** An ERC-20 movement into the balances of its two ends. */
    async apply(transfer: Transfer, block: number) {
      const amount = BigInt(transfer.amount)
      await move(transfer.token, transfer.from, -amount, block)
      await move(transfer.token, transfer.to, amount, block)
    },
    flush: () => balances.flush(),
  }
}
