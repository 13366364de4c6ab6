// @ts-check
/**
 * A sweep of the hash and the checksum over many inputs, with what an independent
 * implementation (viem) gives for them recorded as three digests. The inputs come from a seeded
 * generator, so a failure can be reproduced. The main project's tests/registry/keccak.test.ts
 * compares every input with viem itself and checks these digests; here they need nothing.
 */

/** Bytes from a seeded xorshift generator. @param {number} length @param {number} seed */
export function randomBytes(length, seed) {
  let state = seed >>> 0 || 1
  return Uint8Array.from({ length }, () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) & 0xff
  })
}

/** Every length from 0 to 300 bytes, two seeds each: both rate boundaries (135-137, 271-273) and everything between. */
export function sweepInputs() {
  return Array.from({ length: 301 }, (_, length) => [randomBytes(length, length + 1), randomBytes(length, length * 7919 + 3)]).flat()
}

/** One repeated byte (0x00, 0x01, 0x80, 0xff) at the first rate boundary. */
export function boundaryInputs() {
  return [135, 136, 137].flatMap((length) => [0x00, 0x01, 0x80, 0xff].map((byte) => new Uint8Array(length).fill(byte)))
}

/** 500 random addresses in lower case, without the 0x. */
export function addressInputs() {
  return Array.from({ length: 500 }, (_, i) => Buffer.from(randomBytes(20, i + 12345)).toString('hex'))
}

/** The bytes of a list of 0x-hex digests, one after the other. @param {string[]} digests */
export function joined(digests) {
  return Buffer.concat(digests.map((digest) => Buffer.from(digest.slice(2), 'hex')))
}

/** keccak256 of viem's digests of sweepInputs(), joined. */
export const SWEEP_DIGEST = '0xf7b389bc76b810437ef9af1ba6d437116f45ad46e6ddef1ec74fb7173c39abd8'
/** keccak256 of viem's digests of boundaryInputs(), joined. */
export const BOUNDARY_DIGEST = '0xfb0b5224f16c322c0ad444c3709d2e06047f8edcde7b86fa7799890a0e25e9a0'
/** keccak256 of viem's checksummed addressInputs(), one a line. */
export const CHECKSUM_DIGEST = '0x899a73c7fa4c71866af5887f4592c40351b0e29a5186de66513ea1c288760891'
