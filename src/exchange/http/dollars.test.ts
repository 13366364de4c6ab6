import { describe, expect, test } from 'bun:test'
import type { Address } from 'viem'
import { sqrtPriceX96 } from '../../devnet/seed.ts'
import type { clQueries, PoolRow } from '../read/cl.ts'
import type { PairRow, v2Queries } from '../read/v2.ts'
import type { ExchangeAddresses } from '../settings.ts'
import { dollars, ethUsd } from './dollars.ts'
import type { TokenBook, TokenMeta } from './tokens.ts'

const WETH = 'e7f1725e7734ce288f8367e1bb143e90bb3f0512'
const USD = '9fe46736679d2d9a65f0992f2272de9f3c7fa6e0'
const addresses: ExchangeAddresses = { v2Factory: '', v3Factory: '', weth: WETH, usdToken: USD }
const bytes = (hex: string) => Buffer.from(hex, 'hex')

const pair = (reserveUsd: bigint, reserveWeth: bigint): PairRow => ({
  pair: bytes('11'.repeat(20)), token0: bytes(USD), token1: bytes(WETH), created_block: 1,
  reserve0: `${reserveUsd}`, reserve1: `${reserveWeth}`, reserves_block: 1, swap_count: 0, mint_count: 1, burn_count: 0, volume0: '0', volume1: '0',
})
const pool = (sqrtPrice: bigint, wethBalance: bigint, liquidity = 1n): PoolRow => ({
  pool: bytes('22'.repeat(20)), token0: bytes(USD), token1: bytes(WETH), fee: 500, tick_spacing: 10, created_block: 1,
  sqrt_price_x96: `${sqrtPrice}`, tick: 0, liquidity: `${liquidity}`, balance0: '1', balance1: `${wethBalance}`,
  swap_count: 0, mint_count: 1, burn_count: 0, collect_count: 0,
})
const book = (decimals: Record<string, number | null>) =>
  ({ get: async (address: Address): Promise<TokenMeta> => ({ address, symbol: null, decimals: decimals[address.slice(2).toLowerCase()] ?? null }) }) as unknown as TokenBook
const tokens = book({ [WETH]: 18, [USD]: 6 })
const source = (pairs: PairRow[], pools: PoolRow[]) =>
  [{ pairsOf: () => pairs } as unknown as ReturnType<typeof v2Queries>, { poolsOf: () => pools } as unknown as ReturnType<typeof clQueries>] as const

describe('ethUsd', () => {
  test('from the constant-product pair with the most wrapped ether, adjusted for 6 and 18 decimals', async () => {
    const [v2, cl] = source([pair(3000n * 10n ** 6n, 10n ** 18n), pair(2_500_000n * 10n ** 6n, 1000n * 10n ** 18n)], [])
    expect(dollars(await ethUsd(v2, cl, tokens, addresses))).toBe('2500')
  })

  test('else from the initialised concentrated pool with the most wrapped ether, inverted when ether is token1', async () => {
    // 1 DUSD (token0) = 1/3000 WETH: ether costs 3000 dollars.
    const [v2, cl] = source([pair(0n, 0n)], [pool(sqrtPriceX96(3000n * 10n ** 6n, 10n ** 18n), 5n), pool(sqrtPriceX96(1n, 1n), 1n), pool(sqrtPriceX96(1n, 1n), 9n, 0n)])
    expect(Number(dollars(await ethUsd(v2, cl, tokens, addresses)))).toBeCloseTo(3000, 6)
  })

  test('null, never 0: no dollar token, no source, an empty pair, unknown decimals', async () => {
    const [v2, cl] = source([pair(3000n, 1n)], [])
    expect(await ethUsd(v2, cl, tokens, { ...addresses, usdToken: null })).toBeNull()
    expect(await ethUsd(...source([], []), tokens, addresses)).toBeNull()
    expect(await ethUsd(...source([pair(0n, 10n ** 18n)], []), tokens, addresses)).toBeNull()
    expect(await ethUsd(v2, cl, book({ [WETH]: 18, [USD]: null }), addresses)).toBeNull()
    expect(dollars(null)).toBeNull()
    expect(dollars({ numerator: 0n, denominator: 1n })).toBeNull()
  })
})
