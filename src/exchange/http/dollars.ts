import type { clQueries } from '../read/cl.ts'
import { checksum } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { streamsVersion } from '../../spool/read.ts'
import type { IndexReader } from '../read/indexReader.ts'
import type { v2Queries } from '../read/v2.ts'
import type { ExchangeAddresses } from '../settings.ts'
import { priceFraction } from './price.ts'
import { formatSignificant } from './significant.ts'
import type { TokenBook } from './tokens.ts'

export type Fraction = { numerator: bigint; denominator: bigint }

/** Dollar figures carry this many significant figures. */
const DOLLAR_DIGITS = 12
export const WEI_PER_ETHER = 10n ** 18n

/**
 * A positive fraction as a decimal string, worked out in bigint like every other amount (never
 * a float); null stays null (spec 02: never 0 for "unknown").
 */
export function dollars(value: Fraction | null): string | null {
  if (!value || value.numerator <= 0n) return null
  const text = formatSignificant(value.numerator, value.denominator, DOLLAR_DIGITS)
  // Twelve figures at most, not twelve always: 2500 is "2500", not "2500.00000000".
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}

/**
 * The dollar price of one ether, read from the exchange itself: the constant-product pair of
 * wrapped ether and the configured dollar token with the most wrapped ether in it, else the
 * initialised concentrated pool of the two with the most. null when there is no dollar token,
 * no such pool, an empty side, or a token whose decimals the chain did not give.
 */
export async function ethUsd(
  v2: ReturnType<typeof v2Queries>,
  cl: ReturnType<typeof clQueries>,
  tokens: TokenBook,
  addresses: ExchangeAddresses,
): Promise<Fraction | null> {
  if (!addresses.usdToken) return null
  const weth = blob(addresses.weth)
  const usd = blob(addresses.usdToken)
  const wethIsToken0 = (token0: Uint8Array) => Buffer.from(token0).equals(weth)
  // Find a source first: the token reads below are not needed when there is none.
  const deepestPair = v2
    .pairsOf(weth, usd)
    .map((row) => {
      const [wethReserve, usdReserve] = wethIsToken0(row.token0) ? [row.reserve0, row.reserve1] : [row.reserve1, row.reserve0]
      return { wethReserve: BigInt(wethReserve), usdReserve: BigInt(usdReserve) }
    })
    .filter((pair) => pair.wethReserve > 0n && pair.usdReserve > 0n)
    .sort((a, b) => (b.wethReserve > a.wethReserve ? 1 : b.wethReserve < a.wethReserve ? -1 : 0))[0]
  const deepestPool = deepestPair
    ? undefined
    : cl
        .poolsOf(weth, usd)
        .filter((row) => row.tick !== null && BigInt(row.liquidity) > 0n)
        .map((row) => ({ row, wethBalance: BigInt(wethIsToken0(row.token0) ? row.balance0 : row.balance1) }))
        .sort((a, b) => (b.wethBalance > a.wethBalance ? 1 : b.wethBalance < a.wethBalance ? -1 : 0))[0]
  if (!deepestPair && !deepestPool) return null

  const [wethMeta, usdMeta] = await Promise.all([tokens.get(checksum(weth)), tokens.get(checksum(usd))])
  if (wethMeta.decimals === null || usdMeta.decimals === null) return null
  if (deepestPair) {
    return {
      numerator: deepestPair.usdReserve * 10n ** BigInt(wethMeta.decimals),
      denominator: deepestPair.wethReserve * 10n ** BigInt(usdMeta.decimals),
    }
  }
  const { row } = deepestPool!
  const wethFirst = wethIsToken0(row.token0)
  const [decimals0, decimals1] = wethFirst ? [wethMeta.decimals, usdMeta.decimals] : [usdMeta.decimals, wethMeta.decimals]
  // The pool prices token0 in token1: that is ether in dollars when ether is token0, its inverse otherwise.
  const price = priceFraction(BigInt(row.sqrt_price_x96), decimals0, decimals1)
  return wethFirst ? price : { numerator: price.denominator, denominator: price.numerator }
}

/**
 * ethUsd as the routes ask for it: worked out again only when a stream has moved (the answer
 * depends on nothing else but token decimals, which are kept for the process's life). A null
 * is not kept: it may mean the node was away when the decimals were asked for.
 */
export function ethUsdSource(
  index: IndexReader,
  v2: ReturnType<typeof v2Queries>,
  cl: ReturnType<typeof clQueries>,
  tokens: TokenBook,
  addresses: ExchangeAddresses,
): () => Promise<Fraction | null> {
  let kept: { version: string; value: Fraction } | null = null
  return async () => {
    const version = index.spool((db) => streamsVersion(db, ['v2', 'cl']))
    if (kept?.version === version) return kept.value
    const value = await ethUsd(v2, cl, tokens, addresses)
    kept = value ? { version, value } : null
    return value
  }
}
