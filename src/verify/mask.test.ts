import { describe, expect, test } from 'bun:test'
import solc from 'solc'
import { immutablePlaceholders } from './immutables.ts'
import { maskedRuntimeHash, maskRuntime, metadataLength, referencesFit } from './mask.ts'

const SOURCE = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Held {
    address public immutable owner;
    uint256 public immutable limit;
    uint256 public count;
    constructor(uint256 limit_) { owner = msg.sender; limit = limit_; }
    function bump() external { require(count < limit, "full"); count += 1; }
}`

function compile(source: string, bytecodeHash: 'ipfs' | 'none') {
  const input = {
    language: 'Solidity',
    sources: { 'Held.sol': { content: source } },
    settings: { optimizer: { enabled: true, runs: 200 }, metadata: { bytecodeHash }, outputSelection: { '*': { '*': ['evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] } } },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const deployed = output.contracts['Held.sol'].Held.evm.deployedBytecode
  return { code: new Uint8Array(Buffer.from(deployed.object, 'hex')), references: deployed.immutableReferences as Record<string, Array<{ start: number; length: number }>> }
}

const withIpfs = compile(SOURCE, 'ipfs')
const withoutHash = compile(SOURCE, 'none')

/** The code as a constructor leaves it: `value` written at every immutable's place. */
function deployedWith(code: Uint8Array, references: Record<string, Array<{ start: number; length: number }>>, value: number): Uint8Array {
  const copy = code.slice()
  for (const spots of Object.values(references)) for (const { start, length } of spots) copy.fill(value, start, start + length)
  return copy
}

describe('metadataLength', () => {
  test("finds solc's CBOR at the end: ipfs and solc (53 bytes), or solc alone (10 bytes), each with its two length bytes", () => {
    expect(metadataLength(withIpfs.code)).toBe(0x33 + 2)
    expect(metadataLength(withoutHash.code)).toBe(0x0a + 2)
  })

  test('is 0 for code that does not end in a CBOR map', () => {
    expect(metadataLength(new Uint8Array([0x60, 0x00, 0x60, 0x00, 0xf3]))).toBe(0)
    expect(metadataLength(new Uint8Array([0xff]))).toBe(0)
    expect(metadataLength(new Uint8Array([0x00, 0x00, 0xff, 0x00, 0x02]))).toBe(0)
  })
})

describe('maskedRuntimeHash', () => {
  test('two deployments with other immutable values have the same masked hash, and not the same bytes', () => {
    const one = deployedWith(withIpfs.code, withIpfs.references, 0x11)
    const two = deployedWith(withIpfs.code, withIpfs.references, 0x22)
    expect(Buffer.from(one).equals(Buffer.from(two))).toBe(false)
    expect(maskedRuntimeHash(one, withIpfs.references)).toBe(maskedRuntimeHash(two, withIpfs.references))
    expect(maskedRuntimeHash(one, withIpfs.references)).toBe(maskedRuntimeHash(withIpfs.code, withIpfs.references))
  })

  test('without the immutable references the values tell them apart', () => {
    const one = deployedWith(withIpfs.code, withIpfs.references, 0x11)
    expect(maskedRuntimeHash(one)).not.toBe(maskedRuntimeHash(withIpfs.code))
  })

  test('metadata is masked: a compile of the same code with another comment (another metadata hash) hashes the same', () => {
    const other = compile(`${SOURCE}\n// another comment, another metadata hash`, 'ipfs')
    expect(Buffer.from(other.code).equals(Buffer.from(withIpfs.code))).toBe(false)
    expect(maskedRuntimeHash(other.code, other.references)).toBe(maskedRuntimeHash(withIpfs.code, withIpfs.references))
  })

  test('a changed body hashes otherwise', () => {
    const changed = compile(SOURCE.replace('count += 1', 'count += 2'), 'ipfs')
    expect(maskedRuntimeHash(changed.code, changed.references)).not.toBe(maskedRuntimeHash(withIpfs.code, withIpfs.references))
  })

  test('takes hex as well as bytes, and leaves its input alone', () => {
    const copy = withIpfs.code.slice()
    const hex = `0x${Buffer.from(withIpfs.code).toString('hex')}` as const
    expect(maskedRuntimeHash(hex, withIpfs.references)).toBe(maskedRuntimeHash(withIpfs.code, withIpfs.references))
    maskRuntime(withIpfs.code, withIpfs.references)
    expect(Buffer.from(withIpfs.code).equals(Buffer.from(copy))).toBe(true)
    // a Buffer too, whose slice() is a view and not a copy
    const buffer = Buffer.from(copy)
    maskRuntime(buffer, withIpfs.references)
    expect(buffer.equals(Buffer.from(copy))).toBe(true)
  })

  test('references past the end of the code are not applied and do not fit', () => {
    const far = { 1: [{ start: withIpfs.code.length - 4, length: 32 }] }
    expect(referencesFit(far, withIpfs.code.length)).toBe(false)
    expect(referencesFit(withIpfs.references, withIpfs.code.length)).toBe(true)
    expect(maskedRuntimeHash(withIpfs.code, far)).toBe(maskedRuntimeHash(withIpfs.code))
  })
})

describe('immutablePlaceholders', () => {
  test("finds exactly the places solc's immutableReferences name, from the code alone", () => {
    const expected = Object.values(withIpfs.references).flat().sort((a, b) => a.start - b.start)
    expect(expected.length).toBeGreaterThanOrEqual(2)
    expect(immutablePlaceholders(withIpfs.code)).toEqual({ placeholders: expected })
  })

  test('a code without immutables has none', () => {
    const plain = compile('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Held { uint256 public count; function bump() external { count += 1; } }', 'ipfs')
    expect(plain.references).toEqual({})
    expect(immutablePlaceholders(plain.code)).toEqual({})
  })
})
