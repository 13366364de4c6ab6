import { describe, expect, test } from 'bun:test'
import { getAddress, keccak256 as viemKeccak256 } from 'viem'
import { keccak256, toChecksumAddress } from '../../registry/scripts/validate.mjs'
import { addressInputs, BOUNDARY_DIGEST, boundaryInputs, CHECKSUM_DIGEST, joined, SWEEP_DIGEST, sweepInputs } from '../../registry/tests/sweep.mjs'

// The registry's own tests (registry/tests/keccak.test.mjs, no dependencies) check the sweep
// against three recorded digests. Here, where viem is available, every input is compared with
// viem one by one and the recorded digests are checked to be viem's: the only reason this file
// is in the main project.
describe('the registry validator agrees with viem', () => {
  test('keccak256 on every length from 0 to 300 bytes, and on one repeated byte at the rate boundary', () => {
    for (const bytes of [...sweepInputs(), ...boundaryInputs()]) expect(keccak256(bytes)).toBe(viemKeccak256(bytes))
  })

  test('toChecksumAddress on random addresses, from lower and upper case', () => {
    for (const hex of addressInputs()) {
      const expected = getAddress(`0x${hex}`)
      expect(toChecksumAddress(`0x${hex}`)).toBe(expected)
      expect(toChecksumAddress(`0x${hex.toUpperCase()}`)).toBe(expected)
    }
  })

  test("the registry tests' recorded digests are viem's", () => {
    expect(viemKeccak256(joined(sweepInputs().map((bytes) => viemKeccak256(bytes))))).toBe(SWEEP_DIGEST)
    expect(viemKeccak256(joined(boundaryInputs().map((bytes) => viemKeccak256(bytes))))).toBe(BOUNDARY_DIGEST)
    expect(viemKeccak256(new TextEncoder().encode(addressInputs().map((hex) => getAddress(`0x${hex}`)).join('\n')))).toBe(CHECKSUM_DIGEST)
  })
})
