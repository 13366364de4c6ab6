import type { SpoolDb } from '../../spool/engine.ts'
import type { Page } from '../paging.ts'
import { tokenIdFromKey, tokenIdKey, type Transfer } from '../transfers.ts'
import { txId, txRefs, type BlockRange } from '../../spool/read.ts'

// The token and NFT movements the explorer stream copied out of the spool's logs
// (explorer_transfers), newest first. A row keeps its transaction's id; the hash and time a list
// shows are the spool's, looked up for the whole page at once through its read API.

/** A movement as the explorer stream keeps it: the decoded transfer, its transaction and block. */
export type StoredTransfer = Transfer & { txId: number; blockNumber: number }

/** A movement as lists show it: with its transaction's hash and its block's time. */
export type ListedTransfer = StoredTransfer & { txHash: Uint8Array; timestamp: number }

const COLUMNS = `tx_id AS "txId", log_index AS "logIndex", seq, block_number AS "blockNumber", token, kind, from_addr AS "from", to_addr AS "to",
  token_id AS "tokenId", amount`
const NEWEST = 'ORDER BY tx_id DESC, log_index DESC, seq DESC'

function stored(rows: StoredTransfer[]): StoredTransfer[] {
  for (const row of rows) if (row.tokenId !== null) row.tokenId = tokenIdFromKey(row.tokenId)
  return rows
}

/**
 * The rows `read` selects, each with its transaction's hash and time, in one snapshot: a
 * rollback in between cannot leave a row without its transaction (and one that did would be
 * left out rather than shown without it).
 */
function listed(db: SpoolDb, read: (db: SpoolDb) => Promise<StoredTransfer[]>): Promise<ListedTransfer[]> {
  return db.snapshot(async (db) => {
    const rows = await read(db)
    const refs = await txRefs(
      db,
      rows.map((row) => row.txId),
    )
    return rows.flatMap((row) => {
      const ref = refs.get(row.txId)
      return ref ? [Object.assign(row, { txHash: ref.hash, timestamp: ref.timestamp })] : []
    })
  })
}

/**
 * The newest ERC-20 (`fungible`) or NFT transfers from or to `address`, paged, within the block
 * range when one is given. Each side has its index, so a page is the merge of the newest
 * `offset + limit` of each: two index walks, never a scan of everything the address ever moved.
 */
export async function addressTransfers(db: SpoolDb, address: Uint8Array, fungible: boolean, { limit, offset }: Page, range?: BlockRange): Promise<ListedTransfer[]> {
  const wanted = offset + limit
  const kind = fungible ? 'kind = 20' : 'kind != 20'
  const [first, last] = range ? [txId(range.first, 0), txId(range.last + 1, 0) - 1] : [0, Number.MAX_SAFE_INTEGER]
  return listed(db, async (db) => {
    const side = (column: 'from_addr' | 'to_addr') =>
      db.all<StoredTransfer>(`SELECT ${COLUMNS} FROM explorer_transfers WHERE ${column} = ? AND tx_id BETWEEN ? AND ? AND ${kind} ${NEWEST} LIMIT ?`, address, first, last, wanted)
    const byKey = new Map<string, StoredTransfer>()
    for (const row of [...(await side('from_addr')), ...(await side('to_addr'))]) byKey.set(`${row.txId}:${row.logIndex}:${row.seq}`, row)
    const page = [...byKey.values()].sort((a, b) => b.txId - a.txId || b.logIndex - a.logIndex || b.seq - a.seq).slice(offset, wanted)
    return stored(page)
  })
}

/** The newest transfers of the token or collection at `token`, `limit` after skipping `offset` (the token index, walked to the page's end). */
export async function tokenTransfers(db: SpoolDb, token: Uint8Array, limit: number, offset = 0): Promise<ListedTransfer[]> {
  return listed(db, async (db) => stored(await db.all<StoredTransfer>(`SELECT ${COLUMNS} FROM explorer_transfers WHERE token = ? ${NEWEST} LIMIT ? OFFSET ?`, token, limit, offset)))
}

/** The newest `limit` transfers of one NFT item (`tokenId` in decimal). */
export async function itemTransfers(db: SpoolDb, token: Uint8Array, tokenId: string, limit: number): Promise<ListedTransfer[]> {
  return listed(db, async (db) =>
    stored(await db.all<StoredTransfer>(`SELECT ${COLUMNS} FROM explorer_transfers WHERE token = ? AND token_id = ? ${NEWEST} LIMIT ?`, token, tokenIdKey(tokenId), limit)),
  )
}

/** How many token and NFT transfers involve `address` (a transfer to oneself counts once). */
export async function transferCounts(db: SpoolDb, address: Uint8Array): Promise<{ tokenTransfers: number; nftTransfers: number }> {
  const row = await db.get<{ tokenTransfers: number; nftTransfers: number }>(
    `SELECT count(*) FILTER (WHERE kind = 20) AS "tokenTransfers", count(*) FILTER (WHERE kind != 20) AS "nftTransfers" FROM (
       SELECT tx_id, log_index, seq, kind FROM explorer_transfers WHERE from_addr = ?
       UNION SELECT tx_id, log_index, seq, kind FROM explorer_transfers WHERE to_addr = ?
     ) moved`,
    address,
    address,
  )
  return row ?? { tokenTransfers: 0, nftTransfers: 0 }
}

/** ERC-20 contracts that ever sent `address` tokens: the candidates for its balances. */
export async function tokensReceived(db: SpoolDb, address: Uint8Array, max = 100): Promise<Uint8Array[]> {
  const rows = await db.all<{ token: Uint8Array }>('SELECT DISTINCT token FROM explorer_transfers WHERE to_addr = ? AND kind = 20 ORDER BY token LIMIT ?', address, max)
  return rows.map((row) => row.token)
}
