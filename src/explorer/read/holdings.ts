import type { SpoolDb } from '../../spool/engine.ts'
import { tokenIdFromKey, tokenIdKey } from '../transfers.ts'

// Who holds each NFT (explorer_nft_holdings): one row per ERC-721 item, one per holder of an
// ERC-1155 id. Token ids are decimal strings here; the table keeps them zero-padded.

/** An item of a collection: how many hold it, the first holder by address, and each holder's amount. */
export type CollectionItem = { tokenId: string; holders: number; holder: Uint8Array; amounts: string[] }

/** What an address holds of one item, with the standard of its collection. */
export type Holding = { token: Uint8Array; tokenId: string; amount: string; kind: number }

/** A collection's items by token id, paged. */
export async function collectionItems(db: SpoolDb, token: Uint8Array, limit: number, offset: number): Promise<CollectionItem[]> {
  return (
    await db.all<{ token_id: string; holders: number; holder: Uint8Array; amounts: string }>(
      `SELECT token_id, count(*) AS holders, ${db.dialect.leastBytes('holder')} AS holder, ${db.dialect.joined('amount')} AS amounts FROM explorer_nft_holdings
        WHERE token = ? GROUP BY token_id ORDER BY token_id LIMIT ? OFFSET ?`,
      token,
      limit,
      offset,
    )
  ).map((row) => ({ tokenId: tokenIdFromKey(row.token_id), holders: row.holders, holder: row.holder, amounts: row.amounts.split(',') }))
}

/** How many distinct items of the collection someone holds. */
export async function collectionItemCount(db: SpoolDb, token: Uint8Array): Promise<number> {
  return (await db.get<{ n: number }>('SELECT count(DISTINCT token_id) AS n FROM explorer_nft_holdings WHERE token = ?', token))!.n
}

/** Who holds item `tokenId` (decimal) and how much, by address; none once it is burned. */
export async function itemHolders(db: SpoolDb, token: Uint8Array, tokenId: string): Promise<Array<{ holder: Uint8Array; amount: string }>> {
  return db.all<{ holder: Uint8Array; amount: string }>('SELECT holder, amount FROM explorer_nft_holdings WHERE token = ? AND token_id = ? ORDER BY holder', token, tokenIdKey(tokenId))
}

/** The NFTs `holder` holds now, per the transfers seen, by collection and token id. */
export async function nftsHeld(db: SpoolDb, holder: Uint8Array, max = 100): Promise<Holding[]> {
  return (
    await db.all<{ token: Uint8Array; token_id: string; amount: string; kind: number }>(
      `SELECT h.token, h.token_id, h.amount, t.kind FROM explorer_nft_holdings h JOIN explorer_tokens t ON t.address = h.token
        WHERE h.holder = ? ORDER BY h.token, h.token_id LIMIT ?`,
      holder,
      max,
    )
  ).map((row) => ({ token: row.token, tokenId: tokenIdFromKey(row.token_id), amount: row.amount, kind: row.kind }))
}
