import type { Database } from 'bun:sqlite'
import { tokenIdFromKey, tokenIdKey } from '../transfers.ts'

// Who holds each NFT (explorer_nft_holdings): one row per ERC-721 item, one per holder of an
// ERC-1155 id. Token ids are decimal strings here; the table keeps them zero-padded.

/** An item of a collection: how many hold it, the first holder by address, and each holder's amount. */
export type CollectionItem = { tokenId: string; holders: number; holder: Uint8Array; amounts: string[] }

/** What an address holds of one item, with the standard of its collection. */
export type Holding = { token: Uint8Array; tokenId: string; amount: string; kind: number }

/** A collection's items by token id, paged. */
export function collectionItems(db: Database, token: Uint8Array, limit: number, offset: number): CollectionItem[] {
  return db
    .query<{ token_id: string; holders: number; holder: Uint8Array; amounts: string }, [Uint8Array, number, number]>(
      `SELECT token_id, count(*) AS holders, min(holder) AS holder, group_concat(amount) AS amounts FROM explorer_nft_holdings
        WHERE token = ? GROUP BY token_id ORDER BY token_id LIMIT ? OFFSET ?`,
    )
    .all(token, limit, offset)
    .map((row) => ({ tokenId: tokenIdFromKey(row.token_id), holders: row.holders, holder: row.holder, amounts: row.amounts.split(',') }))
}

/** How many distinct items of the collection someone holds. */
export function collectionItemCount(db: Database, token: Uint8Array): number {
  return db.query<{ n: number }, [Uint8Array]>('SELECT count(DISTINCT token_id) AS n FROM explorer_nft_holdings WHERE token = ?').get(token)!.n
}

/** Who holds item `tokenId` (decimal) and how much, by address; none once it is burned. */
export function itemHolders(db: Database, token: Uint8Array, tokenId: string): Array<{ holder: Uint8Array; amount: string }> {
  return db
    .query<{ holder: Uint8Array; amount: string }, [Uint8Array, string]>('SELECT holder, amount FROM explorer_nft_holdings WHERE token = ? AND token_id = ? ORDER BY holder')
    .all(token, tokenIdKey(tokenId))
}

/** The NFTs `holder` holds now, per the transfers seen, by collection and token id. */
export function nftsHeld(db: Database, holder: Uint8Array, max = 100): Holding[] {
  return db
    .query<{ token: Uint8Array; token_id: string; amount: string; kind: number }, [Uint8Array, number]>(
      `SELECT h.token, h.token_id, h.amount, t.kind FROM explorer_nft_holdings h JOIN explorer_tokens t ON t.address = h.token
        WHERE h.holder = ? ORDER BY h.token, h.token_id LIMIT ?`,
    )
    .all(holder, max)
    .map((row) => ({ token: row.token, tokenId: tokenIdFromKey(row.token_id), amount: row.amount, kind: row.kind }))
}
