import { Elysia } from 'elysia'
import type { Address } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { checksum, checksumOrNull, parseAddress } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { clampOffset, clampLimit, PAGE } from '../paging.ts'
import { TRANSFER_COLUMNS, TRANSFER_JOINS, transferRow, type TransferRecord } from '../rows.ts'
import { tokenIdFromKey, tokenIdKey } from '../transfers.ts'

/** Spec 03 "NFT collection": its 30 most recent transfers. */
const RECENT_TRANSFERS = 30

type Collection = { address: Uint8Array; kind: number; transfers: number; minted: number }
type ItemRow = { token_id: string; holders: number; holder: Uint8Array; amounts: string }

/**
 * Spec 03: the NFT collection (`/nft/{address}`: items clamped to 48, the 30 most recent
 * transfers, cached 15 s) and the NFT item (`/nft/{address}/{tokenId}`, with `collectionMeta`).
 * Items come from the holdings the explorer stream keeps; their off-chain metadata from the
 * background resolver, so a collection seen for the first time shows its items without it.
 */
export function nftRoutes(explorer: Explorer) {
  const { db, registry, probes, metadata } = explorer

  const collectionOf = (address: Address) => {
    const row = db.query<Collection, [Uint8Array]>('SELECT address, kind, transfers, minted FROM explorer_tokens WHERE address = ? AND kind != 20').get(blob(address))
    if (!row) throw new NotFoundError('unknown NFT collection')
    return { address, row, standard: row.kind === 1155 ? ('erc1155' as const) : ('erc721' as const) }
  }

  /** The collection's address as parsed; the answer caches are keyed by it, never by the raw text. */
  const collectionAddress = (text: string) => {
    const address = parseAddress(text)
    if (!address) throw new NotFoundError('unknown NFT collection')
    return address
  }

  /** What the collection says of itself (live, cached) beside what the index counted. */
  const collectionMeta = async (address: Address, row: Collection) => {
    const probe = (await probes.probe([address])).get(address.toLowerCase()) ?? null
    const items = db.query<{ n: number }, [Uint8Array]>('SELECT count(DISTINCT token_id) AS n FROM explorer_nft_holdings WHERE token = ?').get(row.address)!.n
    return {
      address,
      name: probe?.name ?? registry.labelName(address),
      symbol: probe?.symbol ?? null,
      standard: `erc${row.kind}`,
      verified: registry.verified(address),
      label: registry.label(address),
      minted: row.minted,
      transferCount: row.transfers,
      itemCount: items,
      totalSupply: probe?.totalSupply ?? null,
    }
  }

  const item = (row: ItemRow, token: Address, standard: 'erc721' | 'erc1155') => {
    const tokenId = tokenIdFromKey(row.token_id)
    const resolved = metadata.get({ token, tokenId, standard })
    return {
      tokenId,
      owner: row.holders === 1 ? checksum(row.holder) : null,
      holders: row.holders,
      // Amounts are decimal text: summed as big integers, never as SQLite numbers.
      ...(standard === 'erc1155' ? { supply: row.amounts.split(',').reduce((total, amount) => total + BigInt(amount), 0n).toString() } : {}),
      tokenURI: resolved?.tokenURI ?? null,
      metadata: resolved?.metadata ?? null,
    }
  }

  const collection = async (collectionAt: Address, limit: number, offset: number) => {
    const { address, row, standard } = collectionOf(collectionAt)
    const items = db
      .query<ItemRow, [Uint8Array, number, number]>(
        `SELECT token_id, count(*) AS holders, min(holder) AS holder, group_concat(amount) AS amounts FROM explorer_nft_holdings
          WHERE token = ? GROUP BY token_id ORDER BY token_id LIMIT ? OFFSET ?`,
      )
      .all(row.address, limit, offset)
    const transfers = db
      .query<TransferRecord, [Uint8Array, number]>(
        `SELECT ${TRANSFER_COLUMNS} FROM explorer_transfers x ${TRANSFER_JOINS} WHERE x.token = ?
          ORDER BY x.tx_id DESC, x.log_index DESC, x.seq DESC LIMIT ?`,
      )
      .all(row.address, RECENT_TRANSFERS)
    return {
      ...(await collectionMeta(address, row)),
      items: items.map((found) => item(found, address, standard)),
      transfers: transfers.map((found) => transferRow(found, registry)),
    }
  }

  const single = async (collectionAt: Address, tokenId: string) => {
    const { address, row, standard } = collectionOf(collectionAt)
    const key = tokenIdKey(tokenId)
    const transfers = db
      .query<TransferRecord, [Uint8Array, string]>(
        `SELECT ${TRANSFER_COLUMNS} FROM explorer_transfers x ${TRANSFER_JOINS} WHERE x.token = ? AND x.token_id = ?
          ORDER BY x.tx_id DESC, x.log_index DESC, x.seq DESC LIMIT ${RECENT_TRANSFERS}`,
      )
      .all(row.address, key)
    if (transfers.length === 0) throw new NotFoundError('unknown NFT')
    const holders = db
      .query<{ holder: Uint8Array; amount: string }, [Uint8Array, string]>('SELECT holder, amount FROM explorer_nft_holdings WHERE token = ? AND token_id = ? ORDER BY holder')
      .all(row.address, key)
    const id = tokenIdFromKey(key)
    const resolved = await metadata.resolve({ token: address, tokenId: id, standard })
    return {
      collection: address,
      tokenId: id,
      standard,
      owner: holders.length === 1 ? checksum(holders[0]!.holder) : null,
      holders: holders.map((holder) => ({ address: checksumOrNull(holder.holder), amount: holder.amount })),
      burned: holders.length === 0,
      tokenURI: resolved.tokenURI,
      metadata: resolved.metadata,
      transfers: transfers.map((found) => transferRow(found, registry)),
      collectionMeta: await collectionMeta(address, row),
    }
  }

  return new Elysia({ name: 'explorer-nfts' })
    .get('/nft/:address', ({ params, query }) => {
      const address = collectionAddress(params.address)
      const limit = clampLimit(query.limit, PAGE.nftItems)
      const offset = clampOffset(query.offset)
      return explorer.collections.get(`nft:${address}:${limit}:${offset}`, () => collection(address, limit, offset))
    })
    .get('/nft/:address/:tokenId', ({ params }) => {
      // Spec 03: a token id that is not all digits does not match the route: the unknown-route 404.
      if (!/^\d{1,78}$/.test(params.tokenId)) throw new NotFoundError('not found')
      const address = collectionAddress(params.address)
      const tokenId = params.tokenId.replace(/^0+(?=\d)/, '')
      return explorer.answers.get(`nft:${address}:${tokenId}`, () => single(address, tokenId))
    })
}
