import type { Database } from 'bun:sqlite'
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

const COLUMNS = `tx_id AS txId, log_index AS logIndex, seq, block_number AS blockNumber, token, kind, from_addr AS "from", to_addr AS "to",
  token_id AS tokenId, amount`
const NEWEST = 'ORDER BY tx_id DESC, log_index DESC, seq DESC'

function stored(rows: StoredTransfer[]): StoredTransfer[] {
  for (const row of rows) if (row.tokenId !== null) row.tokenId = tokenIdFromKey(row.tokenId)
  return rows
}

/**
 * The rows `read` selects, each with its transaction's hash and time, in one read transaction:
 * a rollback in between cannot leave a row without its transaction (and one that did would be
 * left out rather than shown without it).
 */
function listed(db: Database, read: () => StoredTransfer[]): ListedTransfer[] {
  return db.transaction(() => {
    const rows = read()
    const refs = txRefs(db, rows.map((row) => row.txId))
    return rows.flatMap((row) => {
      const ref = refs.get(row.txId)
      return ref ? [Object.assign(row, { txHash: ref.hash, timestamp: ref.timestamp })] : []
    })
  })()
}

/**
 * The newest ERC-20 (`fungible`) or NFT transfers from or to `address`, paged, within the block
 * range when one is given. Each side has its index, so a page is the merge of the newest
 * `offset + limit` of each: two index walks, never a scan of everything the address ever moved.
 */
export function addressTransfers(db: Database, address: Uint8Array, fungible: boolean, { limit, offset }: Page, range?: BlockRange): ListedTransfer[] {
  const wanted = offset + limit
  const kind = fungible ? 'kind = 20' : 'kind != 20'
  const [first, last] = range ? [txId(range.first, 0), txId(range.last + 1, 0) - 1] : [0, Number.MAX_SAFE_INTEGER]
  const side = (column: 'from_addr' | 'to_addr') =>
    db
      .query<StoredTransfer, [Uint8Array, number, number, number]>(`SELECT ${COLUMNS} FROM explorer_transfers WHERE ${column} = ? AND tx_id BETWEEN ? AND ? AND ${kind} ${NEWEST} LIMIT ?`)
      .all(address, first, last, wanted)
  return listed(db, () => {
    const byKey = new Map<string, StoredTransfer>()
    for (const row of [...side('from_addr'), ...side('to_addr')]) byKey.set(`${row.txId}:${row.logIndex}:${row.seq}`, row)
    const page = [...byKey.values()].sort((a, b) => b.txId - a.txId || b.logIndex - a.logIndex || b.seq - a.seq).slice(offset, wanted)
    return stored(page)
  })
}

/** The newest transfers of the token or collection at `token`, `limit` after skipping `offset` (the token index, walked to the page's end). */
export function tokenTransfers(db: Database, token: Uint8Array, limit: number, offset = 0): ListedTransfer[] {
  return listed(db, () =>
    stored(db.query<StoredTransfer, [Uint8Array, number, number]>(`SELECT ${COLUMNS} FROM explorer_transfers WHERE token = ? ${NEWEST} LIMIT ? OFFSET ?`).all(token, limit, offset)),
  )
}

/** The newest `limit` transfers of one NFT item (`tokenId` in decimal). */
export function itemTransfers(db: Database, token: Uint8Array, tokenId: string, limit: number): ListedTransfer[] {
  return listed(db, () =>
    stored(
      db
        .query<StoredTransfer, [Uint8Array, string, number]>(`SELECT ${COLUMNS} FROM explorer_transfers WHERE token = ? AND token_id = ? ${NEWEST} LIMIT ?`)
        .all(token, tokenIdKey(tokenId), limit),
    ),
  )
}

/** How many token and NFT transfers involve `address` (a transfer to oneself counts once). */
export function transferCounts(db: Database, address: Uint8Array): { tokenTransfers: number; nftTransfers: number } {
  const rows = db
    .query<{ fungible: number; n: number }, [Uint8Array, Uint8Array]>(
      `SELECT kind = 20 AS fungible, count(*) AS n FROM (
         SELECT tx_id, log_index, seq, kind FROM explorer_transfers WHERE from_addr = ?
         UNION SELECT tx_id, log_index, seq, kind FROM explorer_transfers WHERE to_addr = ?
       ) GROUP BY 1`,
    )
    .all(address, address)
  return { tokenTransfers: rows.find((row) => row.fungible === 1)?.n ?? 0, nftTransfers: rows.find((row) => row.fungible === 0)?.n ?? 0 }
}

/** ERC-20 contracts that ever sent `address` tokens: the candidates for its balances. */
export function tokensReceived(db: Database, address: Uint8Array, max = 100): Uint8Array[] {
  return db
    .query<{ token: Uint8Array }, [Uint8Array, number]>('SELECT DISTINCT token FROM explorer_transfers WHERE to_addr = ? AND kind = 20 LIMIT ?')
    .all(address, max)
    .map((row) => row.token)
}
