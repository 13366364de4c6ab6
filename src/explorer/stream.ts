import type { Database, Statement } from 'bun:sqlite'
import type { Config } from '../config/load.ts'
import { txId } from '../spool/codec.ts'
import type { SpoolLog, StreamDefinition } from '../spool/streams.ts'
import { decodeTransfers, isZero, tokenIdFromKey, tokenIdKey, TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC, type Transfer } from './transfers.ts'

/**
 * The explorer's derived tables. The spool indexes logs by emitter and by signature only; the
 * address page needs transfers by sender and by receiver, the token and NFT lists need counts
 * per contract, and a collection page needs who holds each item. Those are kept here, written by
 * the spool's worker beside its own rows, so no request ever scans the logs.
 */
export const explorerMigrations = [
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

      -- Charts and active=1 read the newest blocks that carried transactions; on an idle chain
      -- most blocks are empty, so without this they would walk every empty block.
      CREATE INDEX explorer_blocks_active ON blocks(number) WHERE tx_count > 0;
      -- The mini-block detail is addressed by hash as well as by number.
      CREATE INDEX explorer_minis_hash ON minis(hash);
      -- The transfers of one NFT item (its page, and rebuilding its holders after a reorganisation).
      CREATE INDEX explorer_transfers_item ON explorer_transfers(token, token_id, tx_id) WHERE token_id IS NOT NULL;
    `,
  },
]

type Statements = Record<'insert' | 'token' | 'clear721' | 'hold721' | 'holding' | 'setHolding' | 'dropHolding', Statement>

const prepared = new WeakMap<Database, Statements>()

function statements(db: Database): Statements {
  let found = prepared.get(db)
  if (!found) {
    found = {
      insert: db.prepare(
        `INSERT INTO explorer_transfers (tx_id, log_index, seq, block_number, token, kind, from_addr, to_addr, token_id, amount)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      token: db.prepare(
        `INSERT INTO explorer_tokens (address, kind, transfers, minted, first_tx) VALUES (?, ?, 1, ?, ?)
         ON CONFLICT(address) DO UPDATE SET transfers = transfers + 1, minted = minted + excluded.minted`,
      ),
      clear721: db.prepare('DELETE FROM explorer_nft_holdings WHERE token = ? AND token_id = ?'),
      hold721: db.prepare('INSERT INTO explorer_nft_holdings (token, token_id, holder, amount, last_tx) VALUES (?, ?, ?, 1, ?)'),
      holding: db.prepare('SELECT amount FROM explorer_nft_holdings WHERE token = ? AND token_id = ? AND holder = ?'),
      setHolding: db.prepare(
        `INSERT INTO explorer_nft_holdings (token, token_id, holder, amount, last_tx) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(token, token_id, holder) DO UPDATE SET amount = excluded.amount, last_tx = excluded.last_tx`,
      ),
      dropHolding: db.prepare('DELETE FROM explorer_nft_holdings WHERE token = ? AND token_id = ? AND holder = ?'),
    }
    prepared.set(db, found)
  }
  return found
}

/** Moves one NFT movement into the holdings table. */
function hold(s: Statements, transfer: Transfer, id: number): void {
  if (transfer.tokenId === null) return
  const key = tokenIdKey(transfer.tokenId)
  if (transfer.kind === 721) {
    // An ERC-721 item has one owner: whoever received it last (nobody once burned).
    s.clear721.run(transfer.token, key)
    if (!isZero(transfer.to)) s.hold721.run(transfer.token, key, transfer.to, id)
    return
  }
  const amount = BigInt(transfer.amount)
  const move = (holder: Uint8Array, delta: bigint) => {
    const row = s.holding.get(transfer.token, key, holder) as { amount: string } | null
    const next = BigInt(row?.amount ?? '0') + delta
    if (next > 0n) s.setHolding.run(transfer.token, key, holder, next.toString(), id)
    else s.dropHolding.run(transfer.token, key, holder)
  }
  if (!isZero(transfer.from)) move(transfer.from, -amount)
  if (!isZero(transfer.to)) move(transfer.to, amount)
}

function applyTransfer(s: Statements, transfer: Transfer, id: number, blockNumber: number): void {
  s.insert.run(id, transfer.logIndex, transfer.seq, blockNumber, transfer.token, transfer.kind, transfer.from, transfer.to, transfer.tokenId === null ? null : tokenIdKey(transfer.tokenId), transfer.amount)
  s.token.run(transfer.token, transfer.kind, isZero(transfer.from) ? 1 : 0, id)
  hold(s, transfer, id)
}

export function applyLogs(db: Database, logs: SpoolLog[]): void {
  const s = statements(db)
  for (const log of logs) {
    for (const transfer of decodeTransfers(log)) applyTransfer(s, transfer, log.txId, log.blockNumber)
  }
}

/**
 * Forgets the transfers above `ancestor`, then rebuilds what they touched from the transfers
 * that remain: the holders of each affected item and the counts of each affected contract.
 */
export function rollbackTransfers(db: Database, ancestor: number): void {
  const first = txId(ancestor + 1, 0)
  const items = db
    .query<{ token: Uint8Array; token_id: string }, [number]>('SELECT DISTINCT token, token_id FROM explorer_transfers WHERE tx_id >= ? AND token_id IS NOT NULL')
    .all(first)
  const tokens = db.query<{ token: Uint8Array }, [number]>('SELECT DISTINCT token FROM explorer_transfers WHERE tx_id >= ?').all(first)
  db.run('DELETE FROM explorer_transfers WHERE tx_id >= ?', [first])
  const s = statements(db)
  const replay = db.query<{ tx_id: number; log_index: number; seq: number; kind: number; from_addr: Uint8Array; to_addr: Uint8Array; amount: string }, [Uint8Array, string]>(
    'SELECT tx_id, log_index, seq, kind, from_addr, to_addr, amount FROM explorer_transfers WHERE token = ? AND token_id = ? ORDER BY tx_id, log_index, seq',
  )
  for (const { token, token_id } of items) {
    db.run('DELETE FROM explorer_nft_holdings WHERE token = ? AND token_id = ?', [token, token_id])
    const tokenId = tokenIdFromKey(token_id)
    for (const row of replay.all(token, token_id)) {
      const transfer: Transfer = { logIndex: row.log_index, seq: row.seq, token, kind: row.kind as Transfer['kind'], from: row.from_addr, to: row.to_addr, tokenId, amount: row.amount }
      hold(s, transfer, row.tx_id)
    }
  }
  for (const { token } of tokens) {
    const counts = db
      .query<{ transfers: number; minted: number | null }, [Uint8Array, Uint8Array]>(
        'SELECT count(*) AS transfers, sum(from_addr = ?) AS minted FROM explorer_transfers WHERE token = ?',
      )
      .get(new Uint8Array(20), token)!
    if (counts.transfers === 0) db.run('DELETE FROM explorer_tokens WHERE address = ?', [token])
    else db.run('UPDATE explorer_tokens SET transfers = ?, minted = ? WHERE address = ?', [counts.transfers, counts.minted ?? 0, token])
  }
}

/** The `explorer` derived stream: token and NFT transfers, per contract and per holder. */
export function explorerStream(_config: Config): StreamDefinition {
  return {
    name: 'explorer',
    migrations: explorerMigrations,
    topics: [TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC],
    apply: applyLogs,
    rollback: rollbackTransfers,
  }
}
