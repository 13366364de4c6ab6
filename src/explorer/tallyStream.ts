import type { Config } from '../config/load.ts'
import { parseAddress } from '../eth/address.ts'
import { blob } from '../eth/bytes.ts'
import { hexOf } from '../eth/words.ts'
import type { SpoolTx, SqlValue } from '../spool/engine.ts'
import { Entities } from '../spool/kit/entities.ts'
import { createdTable, versionedHistorySql, versionedTable } from '../spool/kit/tables.ts'
import type { Migration } from '../spool/migrations.ts'
import { blockHeaders, creationTraces, txId, txPartiesOfBlocks, type CallFrame, type TxParties } from '../spool/read.ts'
import type { BlockStream } from '../spool/streams.ts'

export const TALLY_STREAM = 'tally'

/** The chain's totals: one row (id 0). */
const totalsTable = versionedTable({ table: 'explorer_totals', keys: ['id'], columns: ['blocks', 'transactions', 'gas_used', 'wallets', 'accounts', 'contracts'] })
/** Per account: the transactions it sent, received, and sent to itself, and `total` (a self-send once), which orders the accounts list. */
const accountsTable = versionedTable({ table: 'explorer_accounts', keys: ['address'], columns: ['sent', 'received', 'self', 'total'] })
/** Who created each contract, and in which transaction. */
const contractsTable = createdTable('explorer_contracts', 'block')

/** Every table the stream writes, so the spool rolls them back. */
export const tallyTables = [totalsTable, accountsTable, contractsTable]

/**
 * The tally's tables. A spool made before them holds blocks the stream has never seen: it
 * derives them all (`restarts`), in the background, from its first pass.
 */
export const tallyMigrations: Migration[] = [
  {
    id: 'explorer/tally/001-totals-accounts-contracts',
    restarts: TALLY_STREAM,
    sql: `
      CREATE TABLE explorer_totals (
        id INTEGER PRIMARY KEY CHECK (id = 0),
        blocks INTEGER NOT NULL,
        transactions INTEGER NOT NULL,
        gas_used TEXT NOT NULL,              -- decimal: a long chain's total passes 2^53
        wallets INTEGER NOT NULL,            -- accounts that sent a transaction
        accounts INTEGER NOT NULL,
        contracts INTEGER NOT NULL
      );

      CREATE TABLE explorer_accounts (
        address BLOB PRIMARY KEY,
        sent INTEGER NOT NULL,
        received INTEGER NOT NULL,
        self INTEGER NOT NULL,
        total INTEGER NOT NULL               -- sent + received - self
      ) WITHOUT ROWID;
      -- The accounts list: busiest first, ties by address.
      CREATE INDEX explorer_accounts_rank ON explorer_accounts(total DESC, address);

      -- The first creation of each address wins; seq orders the creations inside one transaction.
      CREATE TABLE explorer_contracts (
        contract BLOB PRIMARY KEY,
        creator BLOB NOT NULL,
        tx_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        block INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX explorer_contracts_creator ON explorer_contracts(creator, tx_id, seq);
      -- A rollback deletes the contracts of the orphaned blocks only.
      CREATE INDEX explorer_contracts_block ON explorer_contracts(block);

      ${versionedHistorySql(totalsTable)}
      ${versionedHistorySql(accountsTable)}
    `,
  },
]

export type TallyTotals = { blocks: number; transactions: number; gasUsed: bigint; wallets: number; accounts: number; contracts: number }
export type AccountCounts = { sent: number; received: number; self: number }

export const NO_TOTALS: TallyTotals = { blocks: 0, transactions: 0, gasUsed: 0n, wallets: 0, accounts: 0, contracts: 0 }

export const decodeTotals = (row: Record<string, unknown>): TallyTotals => ({
  blocks: row.blocks as number,
  transactions: row.transactions as number,
  gasUsed: BigInt(row.gas_used as string),
  wallets: row.wallets as number,
  accounts: row.accounts as number,
  contracts: row.contracts as number,
})

const TOTALS_KEY = [0]

/** What one pass holds: the totals and the accounts it changes (written at its end, their history kept by the kit). */
function passState(tx: SpoolTx) {
  return {
    totals: new Entities<TallyTotals>(
      tx,
      totalsTable,
      (totals) => [totals.blocks, totals.transactions, totals.gasUsed.toString(), totals.wallets, totals.accounts, totals.contracts],
      decodeTotals,
    ),
    accounts: new Entities<AccountCounts>(
      tx,
      accountsTable,
      (counts) => [counts.sent, counts.received, counts.self, counts.sent + counts.received - counts.self],
      (row) => ({ sent: row.sent as number, received: row.received as number, self: row.self as number }),
    ),
    /** Inserts a creation unless the address was created before; 1 when it was new. */
    created: (...values: SqlValue[]) => tx.run('INSERT INTO explorer_contracts (contract, creator, tx_id, seq, block) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING', ...values),
  }
}

type PassState = ReturnType<typeof passState>

/** Applies one transaction of `block`: its parties' counts, and the contracts it created, at the top or inside a call. */
async function applyTx(pass: PassState, totals: TallyTotals, tx: TxParties, trace: CallFrame | null, block: number): Promise<void> {
  const account = async (address: Uint8Array) =>
    (await pass.accounts.edit(hexOf(address), [address], block, () => {
      totals.accounts++
      return { sent: 0, received: 0, self: 0 }
    }))!
  totals.transactions++
  const sender = await account(tx.from)
  if (sender.sent === 0) totals.wallets++
  sender.sent++
  // A creation is a transaction to the contract it made.
  const to = tx.to ?? tx.created
  if (to !== null) {
    ;(await account(to)).received++
    if (Buffer.compare(to, tx.from) === 0) sender.self++
  }
  let seq = 0
  const create = async (contract: Uint8Array, creator: Uint8Array) => {
    if ((await pass.created(contract, creator, tx.id, seq++, block)) > 0) totals.contracts++
  }
  if (tx.created) await create(tx.created, tx.from)
  // Contracts created inside calls (a factory's pairs), which only the call tree shows.
  const walk = async (frame: CallFrame) => {
    if (frame.type.startsWith('CREATE') && !frame.error) {
      const contract = parseAddress(frame.to)
      const creator = parseAddress(frame.from)
      if (contract && creator) await create(blob(contract), blob(creator))
    }
    for (const call of frame.calls) await walk(call)
  }
  if (trace) await walk(trace)
}

/**
 * Blocks `fromBlock` to `toBlock` into the tally: each block and its gas, each transaction into
 * its sender's and recipient's counts, each contract created with its creator. Rows change block
 * by block, so that the history can put them back as they stood at the end of any block.
 */
export async function applyBlocks(tx: SpoolTx, fromBlock: number, toBlock: number): Promise<void> {
  const pass = passState(tx)
  const [txs, traces, headers] = await Promise.all([txPartiesOfBlocks(tx, fromBlock, toBlock), creationTraces(tx, fromBlock, toBlock), blockHeaders(tx, fromBlock, toBlock)])
  // The accounts the blocks' transactions move, read together rather than one by one.
  const parties = txs.flatMap((tx) => [tx.from, tx.to ?? tx.created].filter((address): address is Uint8Array => address !== null))
  await pass.accounts.preload(parties.map((address) => ({ id: hexOf(address), key: [address] })))
  let nextTx = 0
  let nextTrace = 0
  for (const header of headers) {
    const block = header.number
    const totals = (await pass.totals.edit('totals', TOTALS_KEY, block, () => ({ ...NO_TOTALS })))!
    totals.blocks++
    totals.gasUsed += BigInt(header.gasUsed)
    for (; nextTx < txs.length && txs[nextTx]!.id < txId(block + 1, 0); nextTx++) {
      const parties = txs[nextTx]!
      while (nextTrace < traces.length && traces[nextTrace]!.txId < parties.id) nextTrace++
      const trace = traces[nextTrace]?.txId === parties.id ? traces[nextTrace]!.trace : null
      await applyTx(pass, totals, parties, trace, block)
    }
  }
  pass.totals.flush()
  pass.accounts.flush()
}

/** The `tally` derived stream: the explorer's counts over every block, transaction and call tree of the spool. */
export function tallyStream(_config: Config): BlockStream {
  return { kind: 'blocks', name: TALLY_STREAM, migrations: tallyMigrations, tables: tallyTables, apply: applyBlocks }
}
