import { describe, expect, test } from 'bun:test'
import { sqrtPriceX96 } from '../../devnet/seed.ts'
import { poolPrice, priceFraction } from './price.ts'

const Q96 = 1n << 96n
const MIN_SQRT_RATIO = 4295128739n
const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n

describe('the price of a concentrated pool', () => {
  test('a square-root price of 1 is 1, whatever the decimals as long as they match', () => {
    expect(poolPrice(Q96, 18, 18)).toBe('1.00000000000000000')
    expect(poolPrice(Q96, 6, 6)).toBe('1.00000000000000000')
  })

  test('adjusted for both tokens: one whole token0 in whole token1', () => {
    // 1 DUSD (6 decimals) = 1/3000 WETH (18 decimals), the dev chain's starting price.
    expect(poolPrice(sqrtPriceX96(3000n * 10n ** 6n, 10n ** 18n), 6, 18)).toBe('0.000333333333333333333')
    // 1 WETH = 3000 DUSD the other way round.
    expect(poolPrice(sqrtPriceX96(10n ** 18n, 3000n * 10n ** 6n), 18, 6)).toBe('3000.00000000000000')
    // 1 BX = 0.001 WETH (both 18 decimals).
    expect(poolPrice(sqrtPriceX96(1000n, 1n), 18, 18)).toBe('0.00100000000000000000')
  })

  test('exact at the ends of the range, where a float would lose everything', () => {
    // Expected values from Python's decimal module at 100 digits, rounded half up to 18.
    expect(poolPrice(MIN_SQRT_RATIO, 18, 18)).toBe('0.00000000000000000000000000000000000000293895680877431120')
    expect(poolPrice(MAX_SQRT_RATIO, 18, 18)).toBe('340256786836388094000000000000000000000')
  })

  test('no price before initialisation or without both decimals', () => {
    expect(poolPrice(0n, 18, 18)).toBeNull()
    expect(poolPrice(Q96, null, 18)).toBeNull()
    expect(poolPrice(Q96, 18, null)).toBeNull()
  })

  test('the fraction is the exact value', () => {
    expect(priceFraction(Q96 * 2n, 0, 0)).toEqual({ numerator: Q96 * Q96 * 4n, denominator: Q96 * Q96 })
  })
})
