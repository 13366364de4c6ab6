import { describe, expect, test } from 'bun:test'
import { encodeAbiParameters, hexToBytes, pad } from 'viem'
import { addressTopic, addressWord, hexOf, int, intTopic, smallInt, uint } from './words.ts'

const bytes = (hex: `0x${string}`) => hexToBytes(hex)

describe('reading ABI words from BLOBs', () => {
  const data = bytes(
    encodeAbiParameters(
      [{ type: 'int256' }, { type: 'int256' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }, { type: 'address' }],
      [-14915507295384594845382n, 15n * 10n ** 18n, 2513643753473852817833365832n, 2n ** 128n - 1n, -887272, '0x8A791620dd6260079BF849Dc5567aDC3F2FdC318'],
    ),
  )

  test('signed and unsigned words decode as viem encoded them', () => {
    expect(int(data, 0)).toBe(-14915507295384594845382n)
    expect(int(data, 1)).toBe(15n * 10n ** 18n)
    expect(uint(data, 2)).toBe(2513643753473852817833365832n)
    expect(uint(data, 3)).toBe(2n ** 128n - 1n)
    expect(smallInt(data, 4)).toBe(-887272)
    expect(hexOf(addressWord(data, 5))).toBe('8a791620dd6260079bf849dc5567adc3f2fdc318')
  })

  test('the extremes of int256', () => {
    const extremes = bytes(encodeAbiParameters([{ type: 'int256' }, { type: 'int256' }], [-(2n ** 255n), 2n ** 255n - 1n]))
    expect(int(extremes, 0)).toBe(-(2n ** 255n))
    expect(int(extremes, 1)).toBe(2n ** 255n - 1n)
  })

  test('indexed topics: addresses and negative ticks', () => {
    expect(hexOf(addressTopic(bytes(pad('0x2279B7A0a67DB372996a5FaB50D91eAA73d2eBe6'))))).toBe('2279b7a0a67db372996a5fab50d91eaa73d2ebe6')
    expect(intTopic(bytes(encodeAbiParameters([{ type: 'int24' }], [-69720])))).toBe(-69720)
    expect(intTopic(bytes(encodeAbiParameters([{ type: 'uint24' }], [10000])))).toBe(10000)
    expect(() => intTopic(null)).toThrow()
  })
})
