import { expect, test } from 'bun:test'
import { queryInteger } from './queryInteger.ts'

test('an optional sign and decimal digits are a number', () => {
  expect(queryInteger('25')).toBe(25)
  expect(queryInteger('007')).toBe(7)
  expect(queryInteger('-3')).toBe(-3)
  expect(queryInteger('+7')).toBe(7)
  expect(queryInteger('99999999999999999999')).toBe(1e20)
})

test('an exponent, hex, a fraction, spaces, nothing or a repeated parameter are not', () => {
  for (const raw of ['1e2', '0x10', '3.5', ' 5', '5 ', '', '+', '-', 'NaN', 'Infinity', '1_000', '٣', undefined, ['5', '6'], 5]) {
    expect(queryInteger(raw)).toBeNull()
  }
})
