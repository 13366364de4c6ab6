import { expect, test } from 'bun:test'
import { dollars } from './dollars.ts'

test('dollars: twelve significant figures at most, trailing zeros dropped; null, never 0', () => {
  expect(dollars({ numerator: 300_000_000_000n, denominator: 10n ** 8n })).toBe('3000')
  expect(dollars({ numerator: 312_345_678_901n, denominator: 10n ** 8n })).toBe('3123.45678901')
  expect(dollars({ numerator: 2n, denominator: 3n })).toBe('0.666666666667')
  expect(dollars(null)).toBeNull()
  expect(dollars({ numerator: 0n, denominator: 1n })).toBeNull()
  expect(dollars({ numerator: -5n, denominator: 1n })).toBeNull()
})
