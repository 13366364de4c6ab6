import type { SpoolDb } from '../../spool/engine.ts'

// The contracts the explorer stream has seen move tokens (explorer_tokens): per contract, the
// standard of its first transfer (20, 721 or 1155) and its counts.

/** A contract's counts as the explorer stream keeps them; `minted` counts transfers from the zero address. */
export type TokenStat = { address: Uint8Array; kind: number; transfers: number; minted: number }

/** Per standard: how many contracts, and their transfers together. */
export type KindTotals = { kind: number; contracts: number; transfers: number }

const STAT = 'SELECT address, kind, transfers, minted FROM explorer_tokens'

export async function tokenStat(db: SpoolDb, address: Uint8Array): Promise<TokenStat | null> {
  return db.get<TokenStat>(`${STAT} WHERE address = ?`, address)
}

/** The contract's counts when it is an NFT collection (ERC-721 or ERC-1155), else null. */
export async function collectionStat(db: SpoolDb, address: Uint8Array): Promise<TokenStat | null> {
  return db.get<TokenStat>(`${STAT} WHERE address = ? AND kind != 20`, address)
}

/** The ERC-20s by transfer count, most first (ties by address). */
export async function busiestTokens(db: SpoolDb, limit: number): Promise<TokenStat[]> {
  return db.all<TokenStat>(`${STAT} WHERE kind = 20 ORDER BY transfers DESC, address LIMIT ?`, limit)
}

/** The NFT collections by items minted, most first (ties by address). */
export async function busiestCollections(db: SpoolDb, limit: number): Promise<TokenStat[]> {
  return db.all<TokenStat>(`${STAT} WHERE kind != 20 ORDER BY minted DESC, address LIMIT ?`, limit)
}

/** The standard of the contract at `address` (20, 721, 1155), or null when it never moved a token. */
export async function tokenKind(db: SpoolDb, address: Uint8Array): Promise<number | null> {
  return (await db.get<{ kind: number }>('SELECT kind FROM explorer_tokens WHERE address = ?', address))?.kind ?? null
}

export async function totalsByKind(db: SpoolDb): Promise<KindTotals[]> {
  return db.all<KindTotals>('SELECT kind, count(*) AS contracts, sum(transfers) AS transfers FROM explorer_tokens GROUP BY kind')
}

/** Up to `limit` of the contracts after `after` in address order (a walk of the key, for a sweep over all of them). */
export async function tokensAfter(db: SpoolDb, after: Uint8Array, limit: number): Promise<Array<{ address: Uint8Array; kind: number }>> {
  return db.all<{ address: Uint8Array; kind: number }>('SELECT address, kind FROM explorer_tokens WHERE address > ? ORDER BY address LIMIT ?', after, limit)
}
