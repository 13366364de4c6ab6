import { describe, expect, test } from 'bun:test'
import { getAddress, keccak256 as viemKeccak256 } from 'viem'
import { keccak256, toChecksumAddress } from '../../registry/scripts/validate.mjs'

/** Random bytes from a seeded generator, so that a failure can be reproduced. */
function randomBytes(length: number, seed: number): Uint8Array {
  let state = seed >>> 0 || 1
  return Uint8Array.from({ length }, () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) & 0xff
  })
}

describe('the registry validator agrees with viem', () => {
  test('keccak256 on every length from 0 to 300 bytes', () => {
    // Every length covers the 135/136/137 rate boundary and the second one at 271/272/273.
    for (let length = 0; length <= 300; length++) {
      for (const seed of [length + 1, length * 7919 + 3]) {
        const bytes = randomBytes(length, seed)
        expect(keccak256(bytes)).toBe(viemKeccak256(bytes))
      }
    }
  })

  test('keccak256 on inputs of one repeated byte at the rate boundary', () => {
    for (const length of [135, 136, 137]) {
      for (const byte of [0x00, 0x01, 0x80, 0xff]) {
        const bytes = new Uint8Array(length).fill(byte)
        expect(keccak256(bytes)).toBe(viemKeccak256(bytes))
      }
    }
  })

  test('toChecksumAddress on random addresses, from lower and upper case', () => {
    for (let i = 0; i < 500; i++) {
      const hex = Buffer.from(randomBytes(20, i + 12345)).toString('hex')
      const expected = getAddress(`0x${hex}`)
      expect(toChecksumAddress(`0x${hex}`)).toBe(expected)
      expect(toChecksumAddress(`0x${hex.toUpperCase()}`)).toBe(expected)
    }
  })
})
