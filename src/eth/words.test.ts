import { describe, expect, test } from 'bun:test'
import { encodeAbiParameters, hexToBytes, pad } from 'viem'
import { addressTopic, addressWord, hexOf, int, intTopic, selectorOf, smallInt, uint, uintDecimal } from './words.ts'

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

describe('words against viem, at every width and sign', () => {
  // Values around each boundary the short ways have: six bytes, 2^53, every chunk of six bytes.
  const around = (bits: number) => [2n ** BigInt(bits) - 1n, 2n ** BigInt(bits), 2n ** BigInt(bits) + 1n]
  const unsigned = [0n, 1n, 0x1fn, 0x20n, ...[8, 47, 48, 52, 53, 55, 56, 96, 144, 160, 200, 255].flatMap(around), 2n ** 256n - 1n]
  const signed = [...unsigned.filter((value) => value < 2n ** 255n), ...unsigned.filter((value) => value <= 2n ** 255n).map((value) => -value)]

  test('uint and uintDecimal', () => {
    const words = bytes(encodeAbiParameters(unsigned.map(() => ({ type: 'uint256' })), unsigned))
    unsigned.forEach((value, index) => {
      expect(uint(words, index)).toBe(value)
      expect(uintDecimal(words, index)).toBe(value.toString())
    })
  })

  test('int, negatives whose magnitude is just below and above each boundary included', () => {
    const words = bytes(encodeAbiParameters(signed.map(() => ({ type: 'int256' })), signed))
    signed.forEach((value, index) => expect(int(words, index)).toBe(value))
  })

  test('ten thousand random words of random widths', () => {
    let seed = 12345
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed)
    const values = Array.from({ length: 10_000 }, () => {
      let value = 0n
      for (let byte = random() % 33; byte > 0; byte--) value = (value << 8n) | BigInt(random() % 256)
      return value
    })
    const words = bytes(encodeAbiParameters(values.map(() => ({ type: 'uint256' })), values))
    values.forEach((value, index) => {
      expect(uint(words, index)).toBe(value)
      expect(int(words, index)).toBe(value >= 2n ** 255n ? value - 2n ** 256n : value)
    })
  })
})

test('selectorOf: the first four bytes of a topic, 0 without one', () => {
  expect(selectorOf(bytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'))).toBe(0xddf252ad)
  expect(selectorOf(null)).toBe(0)
})
