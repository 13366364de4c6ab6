import { describe, expect, test } from 'bun:test'
import { displayUnits, formatAmount } from './format.ts'

describe('amounts', () => {
  test('display units are exact decimal strings', () => {
    expect(displayUnits(10n ** 18n, 18)).toBe('1')
    expect(displayUnits(15n * 10n ** 17n, 18)).toBe('1.5')
    expect(displayUnits(1n, 18)).toBe('0.000000000000000001')
    expect(displayUnits(2500000n, 6)).toBe('2.5')
  })

  test('formatted amounts group thousands, cut to four decimals and carry the symbol', () => {
    expect(formatAmount(1_000_000n * 10n ** 18n, 18, 'BX')).toBe('1,000,000 BX')
    expect(formatAmount(999_998n * 10n ** 18n + 5n * 10n ** 17n, 18, 'ETH')).toBe('999,998.5 ETH')
    expect(formatAmount(123456789n, 18, 'ETH')).toBe('0 ETH')
    expect(formatAmount(19999n * 10n ** 14n, 18, 'ETH')).toBe('1.9999 ETH')
    expect(formatAmount(0n, 6, 'DUSD')).toBe('0 DUSD')
  })
})
