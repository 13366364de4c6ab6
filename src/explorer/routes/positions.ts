import { Elysia } from 'elysia'
import { parseAbi, type Address } from 'viem'
import { InvalidInputError, UnavailableError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { checksum, parseAddressAnyCase } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { viewCall, viewResult } from '../node.ts'
import { collectionItems } from '../read/holdings.ts'
import { collectionStat } from '../read/tokens.ts'

/** The owners one request may name, and the items of each collection read. */
const MAX_OWNERS = 8
export const MAX_ITEMS = 300

const POOL_ABI = parseAbi(['function token0() view returns (address)', 'function token1() view returns (address)', 'function fee() view returns (uint24)'])
const MANAGER_ABI = parseAbi([
  'function positions(uint256 tokenId) view returns (uint96 nonce, address operator, address token0, address token1, uint24 fee, int24 tickLower, int24 tickUpper, uint128 liquidity, uint256 feeGrowthInside0LastX128, uint256 feeGrowthInside1LastX128, uint128 tokensOwed0, uint128 tokensOwed1)',
])
type ManagerPosition = readonly [bigint, Address, Address, Address, number, number, number, bigint, bigint, bigint, bigint, bigint]

/**
 * `/positions?pool={pool}&owners={a,b,…}`: the NFTs behind a concentrated pool's positions. A
 * pool records the contract that minted a position as its owner: when that owner is a position
 * manager (an ERC-721 collection the explorer indexes whose `positions(tokenId)` answers), each
 * of its items in this pool is listed with its holder, range and liquidity, so a page names the
 * NFT's holder and links the token id. Owners that are no collection have no rows. Reads the node
 * (one batch), at most MAX_ITEMS items of each manager.
 */
export function positionRoutes(explorer: Explorer) {
  const { db } = explorer

  const nftPositions = async (pool: Address, owners: Address[]) => {
    const stats = await Promise.all(owners.map((owner) => collectionStat(db, blob(owner))))
    const managers = owners.filter((_, index) => stats[index]?.kind === 721)
    const held = await Promise.all(managers.map((manager) => collectionItems(db, blob(manager), MAX_ITEMS, 0)))
    const items = managers.flatMap((manager, index) => held[index]!.map((item) => ({ manager, item })))
    if (items.length === 0) return { pool, positions: [] }
    const calls = [
      viewCall(pool, POOL_ABI, 'token0'),
      viewCall(pool, POOL_ABI, 'token1'),
      viewCall(pool, POOL_ABI, 'fee'),
      ...items.map(({ manager, item }) => viewCall(manager, MANAGER_ABI, 'positions', [BigInt(item.tokenId)])),
    ]
    const results = await explorer.node.batch(calls)
    if (results === null) throw new UnavailableError('the node cannot be reached')
    const token0 = viewResult<Address>(results, 0, POOL_ABI, 'token0')
    const token1 = viewResult<Address>(results, 1, POOL_ABI, 'token1')
    const fee = viewResult<number>(results, 2, POOL_ABI, 'fee')
    if (token0 === null || token1 === null || fee === null) return { pool, positions: [] } // not a pool
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
    const positions = items.flatMap(({ manager, item }, index) => {
      const position = viewResult<ManagerPosition>(results, 3 + index, MANAGER_ABI, 'positions')
      if (!position || item.holders !== 1) return []
      const [, , positionToken0, positionToken1, positionFee, tickLower, tickUpper, liquidity] = position
      if (!same(positionToken0, token0) || !same(positionToken1, token1) || positionFee !== fee) return []
      return [{ manager: checksum(manager), tokenId: item.tokenId, holder: checksum(item.holder), tickLower, tickUpper, liquidity: liquidity.toString() }]
    })
    return { pool, positions }
  }

  return new Elysia({ name: 'explorer-positions' }).get('/positions', ({ query }) => {
    const pool = parseAddressAnyCase(String(query.pool ?? ''))
    if (!pool) throw new InvalidInputError('pool must be an address')
    const named = String(query.owners ?? '')
      .split(',')
      .filter((text) => text !== '')
    if (named.length === 0 || named.length > MAX_OWNERS) throw new InvalidInputError(`owners must name 1 to ${MAX_OWNERS} addresses`)
    const owners = named.map(parseAddressAnyCase)
    if (owners.some((owner) => owner === null)) throw new InvalidInputError('owners must be addresses')
    const distinct = [...new Set(owners as Address[])].sort()
    return explorer.collections.answer(`positions:${pool}:${distinct.join(',')}`, () => nftPositions(pool, distinct))
  })
}
