import type { Config } from '../config/load.ts'
import { hexOf } from '../eth/words.ts'
import type { SpoolTx } from '../spool/engine.ts'
import { appendedRows, Entities } from '../spool/kit/entities.ts'
import { eventTable, versionedHistorySql, versionedTable } from '../spool/kit/tables.ts'
import type { Migration } from '../spool/migrations.ts'
import type { SpoolLog, StreamDefinition } from '../spool/streams.ts'
import { balanceMigration, balancePass, balanceTable } from './balances.ts'
import { tallyMigrations } from './tallyStream.ts'
import { decodeTransfers, isZero, tokenIdKey, TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC, type Transfer } from './transfers.ts'

/** Per contract: the standard of its first transfer, and counts. */
const tokenTable = versionedTable({ table: 'explorer_tokens', keys: ['address'], columns: ['kind', 'transfers', 'minted', 'first_tx'] })
/** Per NFT item and holder: how much is held; the row goes when nothing is. */
const holdingTable = versionedTable({ table: 'explorer_nft_holdings', keys: ['token', 'token_id', 'holder'], columns: ['amount', 'last_tx'] })

/** Every table the stream writes, so the spool rolls them back: the transfers are events, the rest versioned state. */
export const explorerTables = [eventTable('explorer_transfers'), tokenTable, holdingTable, balanceTable]

export const EXPLORER_STREAM = 'explorer'

/**
 * The explorer stream's tables. The spool indexes logs by emitter and by signature only; the
 * address page needs transfers by sender and by receiver, the token and NFT lists need counts
 * per contract, and a collection page needs who holds each item. Those are kept here, written by
 * the spool's worker beside its own rows, so no request ever scans the logs.
 */
const transferMigrations: Migration[] = [
  {
    id: 'explorer/001-transfers',
    sql: `
      CREATE TABLE explorer_transfers (
        tx_id INTEGER NOT NULL,
        log_index INTEGER NOT NULL,
        seq INTEGER NOT NULL,                -- position in a TransferBatch, else 0
        block_number INTEGER NOT NULL,
        token BLOB NOT NULL,
        kind INTEGER NOT NULL,               -- 20, 721 or 1155
        from_addr BLOB NOT NULL,
        to_addr BLOB NOT NULL,
        token_id TEXT,                       -- zero-padded to 78 digits; null for ERC-20
        amount TEXT NOT NULL,                -- decimal
        PRIMARY KEY (tx_id, log_index, seq)
      ) WITHOUT ROWID;
      CREATE INDEX explorer_transfers_from ON explorer_transfers(from_addr, tx_id);
      CREATE INDEX explorer_transfers_to ON explorer_transfers(to_addr, tx_id);
      CREATE INDEX explorer_transfers_token ON explorer_transfers(token, tx_id);

      -- One row per contract that emitted a transfer: the standard of its first one, and counts.
      CREATE TABLE explorer_tokens (
        address BLOB PRIMARY KEY,
        kind INTEGER NOT NULL,
        transfers INTEGER NOT NULL,
        minted INTEGER NOT NULL,             -- transfers from the zero address
        first_tx INTEGER NOT NULL
      ) WITHOUT ROWID;

      -- Who holds each NFT: one row per ERC-721 item, one per holder of an ERC-1155 id.
      CREATE TABLE explorer_nft_holdings (
        token BLOB NOT NULL,
        token_id TEXT NOT NULL,
        holder BLOB NOT NULL,
        amount TEXT NOT NULL,
        last_tx INTEGER NOT NULL,
        PRIMARY KEY (token, token_id, holder)
      ) WITHOUT ROWID;
      CREATE INDEX explorer_nft_holder ON explorer_nft_holdings(holder, token);

      -- (Two indexes on the spool's blocks and minis stood here; the spool keeps them now, as
      -- migration spool/002, which also drops these on a spool made before it.)
      -- The transfers of one NFT item (its page, and rebuilding its holders after a reorganisation).
      CREATE INDEX explorer_transfers_item ON explorer_transfers(token, token_id, tx_id) WHERE token_id IS NOT NULL;
    `,
  },
  {
    // Counts and holdings become versioned state (the spool's stream kit), so a reorganisation
    // restores them from their history rather than by rebuilding them from the transfers. The
    // tables are emptied and the stream derives everything again, which gives each row its history.
    id: 'explorer/002-versioned-counts-and-holdings',
    restarts: EXPLORER_STREAM,
    sql: `
      DELETE FROM explorer_transfers;
      DELETE FROM explorer_tokens;
      DELETE FROM explorer_nft_holdings;
      ${versionedHistorySql(tokenTable)}
      ${versionedHistorySql(holdingTable)}
    `,
  },
  // Who holds each ERC-20 (balances.ts), summed from the transfers already copied.
  balanceMigration(),
]

/**
 * The explorer's whole schema: its transfers' tables and its tally's (tallyStream.ts), which the
 * two streams bring each for itself. For a spool opened with the explorer alone.
 */
export const explorerMigrations: Migration[] = [...transferMigrations, ...tallyMigrations]

type TokenCounts = { kind: number; transfers: number; minted: number; firstTx: number }
type Holding = { amount: bigint; lastTx: number }

/**
 * What one pass keeps in memory: the counts and holdings it changes (written at the end of the
 * pass, their history kept by the kit), and the holders of each item it touched: read in one query at the item's first
 * movement, then kept as it moves (an ERC-721 transfer clears them all).
 */
function passState(tx: SpoolTx) {
  return {
    transfers: appendedRows(tx, 'INSERT INTO explorer_transfers (tx_id, log_index, seq, block_number, token, kind, from_addr, to_addr, token_id, amount)'),
    holdersOf: (token: Uint8Array, tokenId: string) =>
      tx.all<{ holder: Uint8Array; amount: string; last_tx: number }>('SELECT holder, amount, last_tx FROM explorer_nft_holdings WHERE token = ? AND token_id = ?', token, tokenId),
    tokens: new Entities<TokenCounts>(
      tx,
      tokenTable,
      (counts) => [counts.kind, counts.transfers, counts.minted, counts.firstTx],
      (row) => ({ kind: row.kind as number, transfers: row.transfers as number, minted: row.minted as number, firstTx: row.first_tx as number }),
    ),
    holdings: new Entities<Holding>(
      tx,
      holdingTable,
      (holding) => [holding.amount.toString(), holding.lastTx],
      (row) => ({ amount: BigInt(row.amount as string), lastTx: row.last_tx as number }),
    ),
    balances: balancePass(tx),
    /** Item id → holder id → holder, for the items of this pass. */
    holders: new Map<string, Map<string, Uint8Array>>(),
  }
}

type PassState = ReturnType<typeof passState>

/** Moves one NFT movement (of the item `key`, token `tokenHex`) into the holdings. */
async function hold(pass: PassState, transfer: Transfer, tokenHex: string, key: string, id: number, block: number): Promise<void> {
  const item = `${tokenHex}:${transfer.tokenId}`
  let holders = pass.holders.get(item)
  if (!holders) {
    // Every holding of the item, so that no holder of it is looked up on its own.
    holders = new Map()
    for (const row of await pass.holdersOf(transfer.token, key)) {
      const holderId = hexOf(row.holder)
      holders.set(holderId, row.holder)
      pass.holdings.know(`${item}:${holderId}`, [transfer.token, key, row.holder], { amount: BigInt(row.amount), lastTx: row.last_tx })
    }
    pass.holders.set(item, holders)
  }
  const set = async (holder: Uint8Array, holderId: string, amount: bigint) => {
    const holdingId = `${item}:${holderId}`
    const bound = [transfer.token, key, holder]
    // Not among the item's holders when it was read, nor made since: there is no such row.
    if (!holders.has(holderId)) pass.holdings.know(holdingId, bound, null)
    if (amount > 0n) {
      const holding = (await pass.holdings.edit(holdingId, bound, block, () => ({ amount, lastTx: id })))!
      holding.amount = amount
      holding.lastTx = id
      holders.set(holderId, holder)
    } else {
      await pass.holdings.remove(holdingId, bound, block)
      holders.delete(holderId)
    }
  }
  if (transfer.kind === 721) {
    // An ERC-721 item has one owner: whoever received it last (nobody once burned).
    for (const [holderId, holder] of [...holders]) await set(holder, holderId, 0n)
    if (!isZero(transfer.to)) await set(transfer.to, hexOf(transfer.to), 1n)
    return
  }
  const amount = BigInt(transfer.amount)
  const move = async (holder: Uint8Array, delta: bigint) => {
    const holderId = hexOf(holder)
    const held = holders.has(holderId) ? (await pass.holdings.find(`${item}:${holderId}`, [transfer.token, key, holder]))!.amount : 0n
    await set(holder, holderId, held + delta)
  }
  if (!isZero(transfer.from)) await move(transfer.from, -amount)
  if (!isZero(transfer.to)) await move(transfer.to, amount)
}

async function applyTransfer(pass: PassState, transfer: Transfer, id: number, block: number): Promise<void> {
  const key = transfer.tokenId === null ? null : tokenIdKey(transfer.tokenId)
  pass.transfers.add(id, transfer.logIndex, transfer.seq, block, transfer.token, transfer.kind, transfer.from, transfer.to, key, transfer.amount)
  const tokenHex = hexOf(transfer.token)
  const counts = (await pass.tokens.edit(tokenHex, [transfer.token], block, () => ({ kind: transfer.kind, transfers: 0, minted: 0, firstTx: id })))!
  counts.transfers++
  if (isZero(transfer.from)) counts.minted++
  if (key !== null) await hold(pass, transfer, tokenHex, key, id, block)
  else await pass.balances.apply(transfer, block)
}

export async function applyLogs(tx: SpoolTx, logs: SpoolLog[]): Promise<void> {
  const pass = passState(tx)
  const decoded = logs.map((log) => ({ log, transfers: decodeTransfers(log) }))
  // The counts and balances the pass will move, read together rather than one by one.
  const transfers = decoded.flatMap(({ transfers }) => transfers)
  await pass.tokens.preload(transfers.map((transfer) => ({ id: hexOf(transfer.token), key: [transfer.token] })))
  await pass.balances.preload(transfers.filter((transfer) => transfer.tokenId === null))
  for (const { log, transfers } of decoded) {
    for (const transfer of transfers) await applyTransfer(pass, transfer, log.txId, log.blockNumber)
  }
  pass.transfers.flush()
  pass.tokens.flush()
  pass.holdings.flush()
  pass.balances.flush()
}

/** The `explorer` derived stream: token and NFT transfers, per contract and per holder. */
export function explorerStream(_config: Config): StreamDefinition {
  return {
    name: EXPLORER_STREAM,
    migrations: transferMigrations,
    topics: [TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC],
    tables: explorerTables,
    apply: applyLogs,
  }
}
