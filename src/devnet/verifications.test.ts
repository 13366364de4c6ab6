import { describe, expect, test } from 'bun:test'
import { posix } from 'node:path'
import { keccak256, toHex } from 'viem'
import UniswapV2FactoryBuild from '@uniswap/v2-core/build/UniswapV2Factory.json' with { type: 'json' }
import UniswapV2PairBuild from '@uniswap/v2-core/build/UniswapV2Pair.json' with { type: 'json' }
import UniswapV3PoolBuild from '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json' with { type: 'json' }
import Faucet from '../../contracts/out/Faucet.json' with { type: 'json' }
import { trailingAuxdata } from '../verify/bytecode.ts'
import { OWN_SOURCES, verificationOf } from './verifications.ts'

const ADDRESS = '0x0000000000000000000000000000000000001234'
const bytes = (code: string) => new Uint8Array(Buffer.from(code.replace(/^0x/, ''), 'hex'))
const hex = (code: Uint8Array) => Buffer.from(code).toString('hex')

/** The Faucet's runtime code as its constructor leaves it on chain: its immutables written in. */
function deployedFaucet(): Uint8Array {
  const code = bytes(Faucet.deployedBytecode)
  for (const spots of Object.values(Faucet.immutableReferences)) for (const { start, length } of spots) code.fill(0xab, start, start + length)
  return code
}

describe('the shipped sources', () => {
  test("Uniswap V2's are byte for byte the ones its build compiled (the metadata's keccak of each)", () => {
    for (const [name, build] of [['UniswapV2Pair', UniswapV2PairBuild], ['UniswapV2Factory', UniswapV2FactoryBuild]] as const) {
      const metadata = JSON.parse(build.metadata) as { sources: Record<string, { keccak256: string }> }
      const shipped = OWN_SOURCES.contracts[name]!.sources
      expect(Object.keys(shipped).sort()).toEqual(Object.keys(metadata.sources).sort())
      for (const [path, { keccak256: hash }] of Object.entries(metadata.sources)) expect(keccak256(toHex(OWN_SOURCES.files[shipped[path]!]!))).toBe(hash as `0x${string}`)
    }
  })

  test('every import of every shipped contract is among its sources', () => {
    for (const [name, contract] of Object.entries(OWN_SOURCES.contracts)) {
      for (const [path, file] of Object.entries(contract.sources)) {
        for (const [, target] of OWN_SOURCES.files[file]!.matchAll(/^\s*import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm)) {
          const resolved = target!.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), target!)) : target!
          expect(`${name}: ${resolved}`).toBe(`${name}: ${Object.hasOwn(contract.sources, resolved) ? resolved : '(missing)'}`)
        }
      }
    }
  })
})

describe('verificationOf', () => {
  test("the artifact's code with its immutables written in is an exact match, named and hashed with its immutables masked", () => {
    const verification = verificationOf(ADDRESS, 'Faucet', hex(deployedFaucet()))
    expect(verification?.match).toBe('exact_match')
    expect(verification?.name).toBe('Faucet')
    expect(verification?.details.contractIdentifier).toBe('Faucet.sol:Faucet')
    expect(verification?.details.immutableReferences).toEqual(Faucet.immutableReferences)
    expect(verification?.details.licence).toBe('MIT')
    expect(verification?.compilerVersion).toMatch(/^v0\.8\.\d+\+commit\.[0-9a-f]{8}$/)
    expect(Object.keys(verification!.details.sources)).toContain('Faucet.sol')
    // another deployment, other immutables: the same code hash (the same-code rule's key)
    const other = deployedFaucet()
    for (const spots of Object.values(Faucet.immutableReferences)) for (const { start, length } of spots) other.fill(0x01, start, start + length)
    expect(verificationOf(ADDRESS, 'Faucet', hex(other))?.codeHash).toBe(verification!.codeHash)
  })

  test('other metadata is a match, not an exact one', () => {
    const code = deployedFaucet()
    const metadata = trailingAuxdata(hex(code))?.length ?? 0
    expect(metadata).toBeGreaterThan(0)
    code[code.length - metadata + 5] = code[code.length - metadata + 5]! ^ 0x01
    expect(verificationOf(ADDRESS, 'Faucet', hex(code))?.match).toBe('match')
  })

  test('other code, or code of another length, is not the artifact', () => {
    const code = deployedFaucet()
    code[40] = code[40]! ^ 0xff
    expect(verificationOf(ADDRESS, 'Faucet', hex(code))).toBeNull()
    expect(verificationOf(ADDRESS, 'Faucet', hex(deployedFaucet().subarray(1)))).toBeNull()
    expect(verificationOf(ADDRESS, 'Faucet', hex(new Uint8Array()))).toBeNull()
    expect(verificationOf(ADDRESS, 'NonfungiblePositionManager', hex(deployedFaucet()))).toBeNull()
  })

  test("the V3 pool's immutables are found in the npm artifact's code, so pools with other tokens and fees share a hash", () => {
    const code = bytes(UniswapV3PoolBuild.deployedBytecode)
    const one = verificationOf(ADDRESS, 'UniswapV3Pool', hex(code))
    expect(Object.values(one!.details.immutableReferences).flat().length).toBeGreaterThanOrEqual(7)
    const other = code.slice()
    for (const { start } of Object.values(one!.details.immutableReferences).flat()) other.fill(0x5a, start + 12, start + 32)
    expect(verificationOf(ADDRESS, 'UniswapV3Pool', hex(other))?.codeHash).toBe(one!.codeHash)
  })
})
