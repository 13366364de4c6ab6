import { formatSignificant } from '../../format/significant.ts'

const Q192 = 1n << 192n

/** `price` is a string of eighteen significant figures. */
export const PRICE_DIGITS = 18

/**
 * What one whole token0 buys in token1, from the pool's Q64.96 square-root price:
 * (sqrtPriceX96 / 2^96)^2 * 10^decimals0 / 10^decimals1, exactly, then rounded to eighteen
 * significant figures. null when the pool has no price yet or a token's decimals are unknown.
 */
export function poolPrice(sqrtPriceX96: bigint, decimals0: number | null, decimals1: number | null): string | null {
  if (sqrtPriceX96 === 0n || decimals0 === null || decimals1 === null) return null
  const { numerator, denominator } = priceFraction(sqrtPriceX96, decimals0, decimals1)
  return formatSignificant(numerator, denominator, PRICE_DIGITS)
}

/** The same price as an exact fraction, for figures derived from it (ethUsd). */
export function priceFraction(sqrtPriceX96: bigint, decimals0: number, decimals1: number): { numerator: bigint; denominator: bigint } {
  return { numerator: sqrtPriceX96 * sqrtPriceX96 * 10n ** BigInt(decimals0), denominator: Q192 * 10n ** BigInt(decimals1) }
}
