import { describe, expect, test } from 'bun:test'
import { encodeAbiParameters, hexToBytes, pad } from 'viem'
import { addressTopic, addressWord, hexOf, int, intTopic, smallInt, uint, uintDecimal } from './words.ts'

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

  test('every width of value, around the short way for six bytes and less', () => {
    const values = [0n, 1n, 255n, 2n ** 47n - 1n, 2n ** 47n, 2n ** 48n - 1n, 2n ** 48n, 2n ** 53n + 1n, 2n ** 160n - 1n, 2n ** 256n - 1n]
    const words = bytes(encodeAbiParameters(values.map(() => ({ type: 'uint256' })), values))
    values.forEach((value, index) => {
      expect(uint(words, index)).toBe(value)
      expect(uintDecimal(words, index)).toBe(value.toString())
    })
    expect(uint(words, values.length)).toBe(0n)
    expect(uintDecimal(words, values.length)).toBe('0')
  })

  test('small signed words on both sides of six bytes, and values a number cannot hold', () => {
    const values = [0n, -1n, 887272n, -887272n, 2n ** 47n - 1n, -(2n ** 47n), 2n ** 47n, -(2n ** 47n) - 1n, 2n ** 60n, -(2n ** 60n)]
    const words = bytes(encodeAbiParameters(values.map(() => ({ type: 'int256' })), values))
    values.forEach((value, index) => expect(smallInt(words, index)).toBe(Number(value)))
  })
})
