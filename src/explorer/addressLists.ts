import type { Database } from 'bun:sqlite'
import type { Page } from './paging.ts'
import type { RegistryView } from './registryView.ts'
import { TRANSFER_COLUMNS, TRANSFER_JOINS, transferRow, txSummary, type TransferRecord } from './rows.ts'
import { createdContract, txIdsReceivedBy, txIdsSentBy, txsByIds } from '../spool/read.ts'

// An address appears on either side of a transaction or transfer, and the spool indexes each side
// separately. A page of the newest is the merge of the newest `offset + limit` of each side:
// two index walks, never a scan of everything the address ever did.

/** The newest transactions sent by, sent to, or creating `address`, paged. */
export function addressTransactions(db: Database, address: Uint8Array, creationTx: number | null, { limit, offset }: Page, registry: RegistryView) {
  const wanted = offset + limit
  const ids = new Set([...txIdsSentBy(db, address, wanted), ...txIdsReceivedBy(db, address, wanted)])
  // The creation of a contract is a transaction "to" it, though its `to` is empty.
  const created = creationTx === null ? null : createdContract(db, creationTx)
  if (created !== null && Buffer.compare(created, address) === 0) ids.add(creationTx!)
  return txsByIds(db, [...ids].sort((a, b) => b - a).slice(offset, wanted)).map((tx) => txSummary(tx, registry))
}

/** The newest ERC-20 (`fungible`) or NFT transfers from or to `address`, paged. */
export function addressTransfers(db: Database, address: Uint8Array, fungible: boolean, { limit, offset }: Page, registry: RegistryView) {
  const wanted = offset + limit
  const kind = fungible ? 'x.kind = 20' : 'x.kind != 20'
  const side = (column: 'from_addr' | 'to_addr') =>
    db
      .query<TransferRecord, [Uint8Array, number]>(
        `SELECT ${TRANSFER_COLUMNS} FROM explorer_transfers x ${TRANSFER_JOINS}
          WHERE x.${column} = ? AND ${kind} ORDER BY x.tx_id DESC, x.log_index DESC, x.seq DESC LIMIT ?`,
      )
      .all(address, wanted)
  const byKey = new Map<string, TransferRecord>()
  for (const row of [...side('from_addr'), ...side('to_addr')]) byKey.set(`${row.tx_id}:${row.log_index}:${row.seq}`, row)
  return [...byKey.values()]
    .sort((a, b) => b.tx_id - a.tx_id || b.log_index - a.log_index || b.seq - a.seq)
    .slice(offset, wanted)
    .map((row) => transferRow(row, registry))
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

/** The NFTs `address` holds now, per the transfers seen. */
export function nftsHeld(db: Database, address: Uint8Array, max = 100) {
  return db
    .query<{ token: Uint8Array; token_id: string; amount: string; kind: number }, [Uint8Array, number]>(
      `SELECT h.token, h.token_id, h.amount, t.kind FROM explorer_nft_holdings h JOIN explorer_tokens t ON t.address = h.token
        WHERE h.holder = ? ORDER BY h.token, h.token_id LIMIT ?`,
    )
    .all(address, max)
}
