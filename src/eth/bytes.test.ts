import { expect, test } from 'bun:test'
import { blob, hex, parseHash } from './bytes.ts'
import { decimal, jsonSafe, quantity } from './quantity.ts'

test('hex and BLOBs, both ways', () => {
  expect([...blob('0x00ff10')]).toEqual([0, 255, 16])
  expect([...blob('00FF10')]).toEqual([0, 255, 16])
  expect(hex(new Uint8Array([0, 255, 16]))).toBe('0x00ff10')
  expect(hex(null)).toBeNull()
  expect([...blob('0x')]).toEqual([])
  // Text that is not whole bytes of hex is refused, not turned into other bytes.
  for (const text of ['0x0', '0x-1', '0xzz', '0x00 ']) expect(() => blob(text)).toThrow()
})

test('hashes as callers write them', () => {
  const hash: string = `0x${'Ab'.repeat(32)}`
  expect(parseHash(hash)).toBe(hash.toLowerCase() as `0x${string}`)
  // The prefix in either case, as an address's: the same hash.
  expect(parseHash(`0X${'AB'.repeat(32)}`)).toBe(`0x${'ab'.repeat(32)}`)
  for (const text of [hash.slice(0, 65), `${hash}0`, 'ab'.repeat(32), null]) expect(parseHash(text)).toBeNull()
})

test('quantities, amounts and bigints in JSON', () => {
  expect(quantity('0x10')).toBe(16)
  expect(quantity(null)).toBe(0)
  expect(decimal('0xde0b6b3a7640000')).toBe('1000000000000000000')
  expect(decimal(undefined)).toBeNull()
  expect(jsonSafe({ a: [1n, { b: 2n }], c: 'x' })).toEqual({ a: ['1', { b: '2' }], c: 'x' })
})
