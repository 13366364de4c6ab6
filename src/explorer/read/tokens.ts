import type { Database } from 'bun:sqlite'

// The contracts the explorer stream has seen move tokens (explorer_tokens): per contract, the
// standard of its first transfer (20, 721 or 1155) and its counts.

/** A contract's counts as the explorer stream keeps them; `minted` counts transfers from the zero address. */
export type TokenStat = { address: Uint8Array; kind: number; transfers: number; minted: number }

/** Per standard: how many contracts, and their transfers together. */
export type KindTotals = { kind: number; contracts: number; transfers: number }

const STAT = 'SELECT address, kind, transfers, minted FROM explorer_tokens'

export function tokenStat(db: Database, address: Uint8Array): TokenStat | null {
  return db.query<TokenStat, [Uint8Array]>(`${STAT} WHERE address = ?`).get(address)
}

/** The contract's counts when it is an NFT collection (ERC-721 or ERC-1155), else null. */
export function collectionStat(db: Database, address: Uint8Array): TokenStat | null {
  return db.query<TokenStat, [Uint8Array]>(`${STAT} WHERE address = ? AND kind != 20`).get(address)
}

/** The ERC-20s by transfer count, most first (ties by address). */
export function busiestTokens(db: Database, limit: number): TokenStat[] {
  return db.query<TokenStat, [number]>(`${STAT} WHERE kind = 20 ORDER BY transfers DESC, address LIMIT ?`).all(limit)
}

/** The NFT collections by items minted, most first (ties by address). */
export function busiestCollections(db: Database, limit: number): TokenStat[] {
  return db.query<TokenStat, [number]>(`${STAT} WHERE kind != 20 ORDER BY minted DESC, address LIMIT ?`).all(limit)
}

/** The standard of the contract at `address` (20, 721, 1155), or null when it never moved a token. */
export function tokenKind(db: Database, address: Uint8Array): number | null {
  return db.query<{ kind: number }, [Uint8Array]>('SELECT kind FROM explorer_tokens WHERE address = ?').get(address)?.kind ?? null
}

export function totalsByKind(db: Database): KindTotals[] {
  return db.query<KindTotals, []>('SELECT kind, count(*) AS contracts, sum(transfers) AS transfers FROM explorer_tokens GROUP BY kind').all()
}

/** Up to `limit` of the contracts after `after` in address order (a walk of the key, for a sweep over all of them). */
export function tokensAfter(db: Database, after: Uint8Array, limit: number): Array<{ address: Uint8Array; kind: number }> {
  return db.query<{ address: Uint8Array; kind: number }, [Uint8Array, number]>('SELECT address, kind FROM explorer_tokens WHERE address > ? ORDER BY address LIMIT ?').all(after, limit)
}
