import { describe, expect, test } from 'bun:test'
import { formatSignificant, readableSignificant } from './significant.ts'

describe('significant figures with bigints only', () => {
  test('exactly the number of figures asked for, trailing zeros kept', () => {
    expect(formatSignificant(1n, 1n, 18)).toBe('1.00000000000000000')
    expect(formatSignificant(3000n, 1n, 18)).toBe('3000.00000000000000')
    expect(formatSignificant(1n, 3n, 5)).toBe('0.33333')
    expect(formatSignificant(2n, 3n, 5)).toBe('0.66667')
  })

  test('rounds half up, carrying into a new digit', () => {
    expect(formatSignificant(99995n, 100000n, 4)).toBe('1.000')
    expect(formatSignificant(12345n, 1n, 4)).toBe('12350')
    expect(formatSignificant(12344n, 1n, 4)).toBe('12340')
    expect(formatSignificant(999999n, 1n, 3)).toBe('1000000')
  })

  test('very small and very large values stay plain decimals', () => {
    expect(formatSignificant(1n, 10n ** 30n, 3)).toBe('0.00000000000000000000000000000100')
    expect(formatSignificant(10n ** 40n + 1n, 1n, 5)).toBe(`10000${'0'.repeat(36)}`)
  })

  test('zero is "0"; a negative value or a non-positive denominator is refused', () => {
    expect(formatSignificant(0n, 5n, 18)).toBe('0')
    expect(() => formatSignificant(-1n, 5n, 18)).toThrow(RangeError)
    expect(() => formatSignificant(1n, 0n, 18)).toThrow(RangeError)
  })

  test('agrees with a long division done digit by digit', () => {
    const cases: Array<[bigint, bigint]> = [
      [2501309815177069868821989164n ** 2n, 1n << 192n],
      [1442139786016249474448019592395465n ** 2n * 10n ** 6n, (1n << 192n) * 10n ** 18n],
      [7n, 13n],
      [10n ** 50n + 123456789n, 3n],
    ]
    for (const [numerator, denominator] of cases) {
      const text = formatSignificant(numerator, denominator, 18)
      const figures = text.replace('.', '').replace(/^0+/, '')
      if (text.includes('.')) expect(figures.length).toBe(18)
      else expect(figures.slice(18)).toMatch(/^0*$/)
      // The rounded value is within half a unit in the last place of the exact one.
      const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0
      const ulp = text.includes('.') ? 1n : 10n ** BigInt(text.length - 18)
      const error = BigInt(text.replace('.', '')) * denominator - numerator * 10n ** BigInt(decimals)
      expect((error < 0n ? -error : error) * 2n <= ulp * denominator).toBe(true)
    }
  })
})

describe('for a person to read', () => {
  test('either sign, the decimals without their trailing zeros, zero as "0"', () => {
    expect(readableSignificant(1n, 2n, 12)).toBe('0.5')
    expect(readableSignificant(-1n, 3n, 4)).toBe('-0.3333')
    expect(readableSignificant(1n, -3n, 4)).toBe('-0.3333')
    expect(readableSignificant(-12000n, -10n, 12)).toBe('1200')
    expect(readableSignificant(99995n, 100000n, 4)).toBe('1')
    expect(readableSignificant(0n, -5n, 12)).toBe('0')
    expect(readableSignificant(123456789n, 1000n, 4)).toBe('123500')
  })
})
