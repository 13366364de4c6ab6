import { Elysia } from 'elysia'
import type { Address } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { checksum, checksumOrNull, parseAddress } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { clampOffset, clampLimit, PAGE } from '../paging.ts'
import { collectionItemCount, collectionItems, itemHolders, type CollectionItem } from '../read/holdings.ts'
import { collectionStat, type TokenStat } from '../read/tokens.ts'
import { itemTransfers, tokenTransfers } from '../read/transfers.ts'
import { transferRow } from '../rows.ts'

/** An NFT collection's answer carries its 30 most recent transfers. */
const RECENT_TRANSFERS = 30

/**
 * The NFT collection (`/nft/{address}`: items clamped to 48, the 30 most recent
 * transfers, cached 15 s) and the NFT item (`/nft/{address}/{tokenId}`, with `collectionMeta`).
 * Items come from the holdings the explorer stream keeps; their off-chain metadata from the
 * background resolver, so a collection seen for the first time shows its items without it.
 */
export function nftRoutes(explorer: Explorer) {
  const { db, registry, probes, metadata } = explorer

  const collectionOf = async (address: Address) => {
    const row = await collectionStat(db, blob(address))
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
  const collectionMeta = async (address: Address, row: TokenStat) => {
    const probe = (await probes.probe([address])).get(address.toLowerCase()) ?? null
    const items = await collectionItemCount(db, row.address)
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

  const item = (found: CollectionItem, token: Address, standard: 'erc721' | 'erc1155') => {
    const { tokenId } = found
    const resolved = metadata.get({ token, tokenId, standard })
    return {
      tokenId,
      owner: found.holders === 1 ? checksum(found.holder) : null,
      holders: found.holders,
      // Amounts are decimal text: summed as big integers, never as SQLite numbers.
      ...(standard === 'erc1155' ? { supply: found.amounts.reduce((total, amount) => total + BigInt(amount), 0n).toString() } : {}),
      tokenURI: resolved?.tokenURI ?? null,
      metadata: resolved?.metadata ?? null,
    }
  }

  const collection = async (collectionAt: Address, limit: number, offset: number) => {
    const { address, row, standard } = await collectionOf(collectionAt)
    const items = await collectionItems(db, row.address, limit, offset)
    const transfers = await tokenTransfers(db, row.address, RECENT_TRANSFERS)
    return {
      ...(await collectionMeta(address, row)),
      items: items.map((found) => item(found, address, standard)),
      transfers: transfers.map((found) => transferRow(found, registry)),
    }
  }

  const single = async (collectionAt: Address, tokenId: string) => {
    const { address, row, standard } = await collectionOf(collectionAt)
    const transfers = await itemTransfers(db, row.address, tokenId, RECENT_TRANSFERS)
    if (transfers.length === 0) throw new NotFoundError('unknown NFT')
    const holders = await itemHolders(db, row.address, tokenId)
    const resolved = await metadata.resolve({ token: address, tokenId, standard })
    return {
      collection: address,
      tokenId,
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
      return explorer.collections.answer(`nft:${address}:${limit}:${offset}`, () => collection(address, limit, offset))
    })
    .get('/nft/:address/:tokenId', ({ params }) => {
      // A token id that is not all digits does not match the route: the unknown-route 404.
      if (!/^\d{1,78}$/.test(params.tokenId)) throw new NotFoundError('not found')
      const address = collectionAddress(params.address)
      const tokenId = params.tokenId.replace(/^0+(?=\d)/, '')
      return explorer.answers.answer(`nft:${address}:${tokenId}`, () => single(address, tokenId))
    })
}
