import { expect, test } from 'bun:test'
import { clampLimit, clampOffset, MAX_OFFSET, page, PAGE } from './paging.ts'

test('a missing or non-numeric limit is the default of the route', () => {
  for (const raw of [undefined, '', 'abc', '10abc', 'NaN', ['5', '6']]) {
    expect(clampLimit(raw, PAGE.list)).toBe(25)
    expect(clampLimit(raw, PAGE.block)).toBe(50)
    expect(clampLimit(raw, PAGE.chart)).toBe(48)
    expect(clampLimit(raw, PAGE.nftItems)).toBe(48)
  }
})

test('a negative or zero limit is 1; above the ceiling is the ceiling', () => {
  expect(clampLimit('-5', PAGE.list)).toBe(1)
  expect(clampLimit('0', PAGE.list)).toBe(1)
  expect(clampLimit('200', PAGE.list)).toBe(100)
  expect(clampLimit('200', PAGE.block)).toBe(100)
  expect(clampLimit('500', PAGE.chart)).toBe(200)
  expect(clampLimit('100', PAGE.nftItems)).toBe(48)
  expect(clampLimit('7', PAGE.list)).toBe(7)
  expect(clampLimit('+7', PAGE.list)).toBe(7)
})

test('a number is what the exchange index takes for one: an exponent, hex or a fraction is the default', () => {
  for (const raw of ['1e2', '0x10', '3.5', '7.9', ' 5', 'Infinity']) {
    expect(clampLimit(raw, PAGE.list)).toBe(25)
    expect(clampOffset(raw)).toBe(0)
  }
})

test('offset is at least 0, and 0 when it is not a number', () => {
  expect(clampOffset('-3')).toBe(0)
  expect(clampOffset('x')).toBe(0)
  expect(clampOffset(undefined)).toBe(0)
  expect(clampOffset('12')).toBe(12)
  expect(clampOffset('1'.padEnd(31, '0'))).toBe(MAX_OFFSET)
  expect(clampOffset('9'.repeat(400))).toBe(MAX_OFFSET)
  expect(Number.isSafeInteger(clampOffset('99999999999999999999') + 100)).toBe(true)
  expect(page({ limit: '3', offset: '4' })).toEqual({ limit: 3, offset: 4 })
})
