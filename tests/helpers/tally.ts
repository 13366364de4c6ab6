import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import type { Database } from 'bun:sqlite'
import { addressKey } from '../../src/eth/address.ts'
import { tallyTables } from '../../src/explorer/tallyStream.ts'
import { tableNames } from '../../src/spool/kit/tables.ts'
import { txTrace } from '../../src/spool/read.ts'
import type { CallFrame } from '../../src/spool/traces.ts'

// The explorer's tally checked from outside the stream: counted again from scratch over the
// whole spool (grouped in SQL, every call tree walked), and its tables dumped for comparing two
// derivations row for row.

/** What the tally must hold: totals, per-account counts, and each contract's creator and transaction (hex without 0x). */
export type CountedTally = {
  totals: { blocks: number; transactions: number; gasUsed: string; wallets: number; accounts: number; contracts: number }
  accounts: Array<{ address: string; sent: number; received: number; self: number; total: number }>
  contracts: Array<{ contract: string; creator: string; txId: number }>
}

/** The tally counted from scratch over what the spool holds. */
export async function countTally(db: Database): Promise<CountedTally> {
  const grouped = (sql: string) =>
    new Map(
      db
        .query<{ a: Uint8Array; n: number }, []>(sql)
        .all()
        .map((row) => [addressKey(row.a), row.n]),
    )
  const sent = grouped('SELECT from_addr AS a, count(*) AS n FROM txs GROUP BY from_addr')
  const received = grouped('SELECT coalesce(to_addr, created) AS a, count(*) AS n FROM txs WHERE coalesce(to_addr, created) IS NOT NULL GROUP BY a')
  const self = grouped('SELECT from_addr AS a, count(*) AS n FROM txs WHERE coalesce(to_addr, created) = from_addr GROUP BY a')
  const addresses = [...new Set([...sent.keys(), ...received.keys()])].sort()
  const accounts = addresses.map((address) => {
    const counts = { sent: sent.get(address) ?? 0, received: received.get(address) ?? 0, self: self.get(address) ?? 0 }
    return { address, ...counts, total: counts.sent + counts.received - counts.self }
  })

  // Every creation in chain order, the transaction's own first, then its call tree depth first; an address's first creation stands.
  const contracts = new Map<string, { creator: string; txId: number }>()
  for (const tx of db.query<{ id: number; from_addr: Uint8Array; created: Uint8Array | null }, []>('SELECT id, from_addr, created FROM txs ORDER BY id').all()) {
    const add = (contract: string, creator: string) => {
      if (!contracts.has(contract)) contracts.set(contract, { creator, txId: tx.id })
    }
    if (tx.created) add(addressKey(tx.created), addressKey(tx.from_addr))
    const walk = (frame: CallFrame) => {
      if (frame.type.startsWith('CREATE') && !frame.error && frame.to) add(addressKey(frame.to), addressKey(frame.from))
      frame.calls.forEach(walk)
    }
    const trace = await txTrace(sqliteDb(db), tx.id)
    if (trace) walk(trace)
  }

  const spool = db.query<{ blocks: number; gas: number | null }, []>('SELECT count(*) AS blocks, sum(gas_used) AS gas FROM blocks').get()!
  return {
    totals: {
      blocks: spool.blocks,
      transactions: db.query<{ n: number }, []>('SELECT count(*) AS n FROM txs').get()!.n,
      gasUsed: String(spool.gas ?? 0),
      wallets: sent.size,
      accounts: accounts.length,
      contracts: contracts.size,
    },
    accounts,
    contracts: [...contracts].map(([contract, made]) => ({ contract, ...made })).sort((a, b) => (a.contract < b.contract ? -1 : 1)),
  }
}

/** The tally as the stream left it, in the same shape. */
export function storedTally(db: Database): CountedTally {
  const totals = db.query<CountedTally['totals'], []>('SELECT blocks, transactions, gas_used AS gasUsed, wallets, accounts, contracts FROM explorer_totals WHERE id = 0').get() ?? {
    blocks: 0,
    transactions: 0,
    gasUsed: '0',
    wallets: 0,
    accounts: 0,
    contracts: 0,
  }
  const accounts = db
    .query<{ address: Uint8Array; sent: number; received: number; self: number; total: number }, []>('SELECT address, sent, received, self, total FROM explorer_accounts ORDER BY address')
    .all()
    .map((row) => ({ ...row, address: addressKey(row.address) }))
  const contracts = db
    .query<{ contract: Uint8Array; creator: Uint8Array; txId: number }, []>('SELECT contract, creator, tx_id AS txId FROM explorer_contracts ORDER BY contract')
    .all()
    .map((row) => ({ contract: addressKey(row.contract), creator: addressKey(row.creator), txId: row.txId }))
  return { totals, accounts, contracts }
}

/** Every row of every table the tally stream declares (histories included), for comparing two derivations. */
export function dumpTally(db: Database): Record<string, string[]> {
  return Object.fromEntries(
    tallyTables.flatMap(tableNames).map((name) => [
      name,
      db
        .query<Record<string, unknown>, []>(`SELECT * FROM ${name}`)
        .all()
        .map((row) => JSON.stringify(row, (_key, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)))
        .sort(),
    ]),
  )
}
