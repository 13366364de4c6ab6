import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isAddress, keccak256, toChecksumAddress } from '../scripts/keccak.mjs'
import { addressInputs, BOUNDARY_DIGEST, boundaryInputs, CHECKSUM_DIGEST, joined, SWEEP_DIGEST, sweepInputs } from './sweep.mjs'

const text = (value) => new TextEncoder().encode(value)
const counting = (length) => Uint8Array.from({ length }, (_, i) => i & 0xff)

describe('keccak256', () => {
  test('published vectors of the original Keccak (not SHA3-256)', () => {
    assert.equal(keccak256(new Uint8Array()), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    assert.equal(keccak256(text('abc')), '0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45')
    assert.equal(keccak256(text('The quick brown fox jumps over the lazy dog')), '0x4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15')
  })

  // Around the 136-byte rate the padding lands in one byte (135), fills a block (136) or spills
  // over (137); 272 is two whole blocks. Digests from an independent implementation (viem).
  test('inputs around the rate boundary', () => {
    assert.equal(keccak256(counting(135)), '0xcbdfd9dee5faad3818d6b06f95a219fd290b0e1706f6a82e5a595b9ce9faca62')
    assert.equal(keccak256(counting(136)), '0x7ce759f1ab7f9ce437719970c26b0a66ff11fe3e38e17df89cf5d29c7d7f807e')
    assert.equal(keccak256(counting(137)), '0xac73d4fae68b8453f764007c1a20ce95994187861f0c3227a3a8e99a73a3b1db')
    assert.equal(keccak256(counting(272)), '0xfdf2ec49e749960d3c8521a0219af8d03e30e2b3bf19bd16150ee0eaf133d66e')
  })

  test('every length from 0 to 300 bytes, and one repeated byte at the rate boundary, as viem hashes them', () => {
    assert.equal(keccak256(joined(sweepInputs().map((bytes) => keccak256(bytes)))), SWEEP_DIGEST)
    assert.equal(keccak256(joined(boundaryInputs().map((bytes) => keccak256(bytes)))), BOUNDARY_DIGEST)
  })

  test('the well-known hash of the ERC-20 Transfer event', () => {
    assert.equal(keccak256(text('Transfer(address,address,uint256)')), '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
  })

  test('takes bytes, not text, so that a hex string is never hashed as characters by mistake', () => {
    assert.throws(() => keccak256(/** @type {any} */ ('')), TypeError)
  })
})

describe('toChecksumAddress', () => {
  // The examples of EIP-55 itself.
  const EIP55 = [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    '0xde709f2102306220921060314715629080e2fb77',
    '0x27b1fdb04752bbc536007a920d24acb045561c26',
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ]

  test('EIP-55 examples, from any letter case', () => {
    for (const address of EIP55) {
      assert.equal(toChecksumAddress(address.toLowerCase()), address)
      assert.equal(toChecksumAddress(`0x${address.slice(2).toUpperCase()}`), address)
    }
  })

  test('random addresses from lower and upper case, as viem checksums them', () => {
    const fromLower = addressInputs().map((hex) => toChecksumAddress(`0x${hex}`))
    assert.deepEqual(addressInputs().map((hex) => toChecksumAddress(`0x${hex.toUpperCase()}`)), fromLower)
    assert.equal(keccak256(text(fromLower.join('\n'))), CHECKSUM_DIGEST)
  })

  test('rejects what is not an address', () => {
    for (const value of ['', '0x', '0x123', `0x${'g'.repeat(40)}`, `${'a'.repeat(42)}`, `0x${'a'.repeat(41)}`]) {
      assert.equal(isAddress(value), false)
      assert.throws(() => toChecksumAddress(value), TypeError)
    }
  })
})
