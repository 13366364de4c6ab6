import { expect, test } from 'bun:test'
import { bigQuantity, quantityOrNull } from './quantity.ts'

test('a quantity the node may leave out stays null; a zero is a zero', () => {
  expect(quantityOrNull('0x1f')).toBe(31)
  expect(quantityOrNull('0x0')).toBe(0)
  expect(quantityOrNull(null)).toBeNull()
  expect(quantityOrNull(undefined)).toBeNull()
})

test('a wei quantity as a bigint is exact past 2^53', () => {
  expect(bigQuantity('0x1bc16d674ec80001')).toBe(2_000_000_000_000_000_001n)
  expect(bigQuantity(undefined)).toBe(0n)
})
