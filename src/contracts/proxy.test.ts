import { describe, expect, test } from 'bun:test'
import { keccak256, toHex } from 'viem'
import { cloneTarget, EIP1822_SLOT, EIP1967_BEACON_SLOT, EIP1967_IMPLEMENTATION_SLOT, slotAddress } from './proxy.ts'

const TARGET = '0xbebebebebebebebebebebebebebebebebebebebe'

describe('the standard slots', () => {
  test("are the standards' own: keccak of their names, less one for EIP-1967", () => {
    expect(BigInt(EIP1967_IMPLEMENTATION_SLOT)).toBe(BigInt(keccak256(toHex('eip1967.proxy.implementation'))) - 1n)
    expect(BigInt(EIP1967_BEACON_SLOT)).toBe(BigInt(keccak256(toHex('eip1967.proxy.beacon'))) - 1n)
    expect(EIP1822_SLOT).toBe(keccak256(toHex('PROXIABLE')))
  })
})

describe('cloneTarget', () => {
  test("reads the implementation out of EIP-1167's 45 bytes", () => {
    const clone = `0x363d3d373d3d3d363d73${TARGET.slice(2)}5af43d82803e903d91602b57fd5bf3` as const
    expect(cloneTarget(clone)).toBe('0xBEbeBeBEbeBebeBeBEBEbebEBeBeBebeBeBebebe')
    expect(cloneTarget(clone.toUpperCase().replace('0X', '0x') as `0x${string}`)?.toLowerCase()).toBe(TARGET)
  })

  test('refuses other code: a longer tail, another head, a shorter address', () => {
    expect(cloneTarget(`0x363d3d373d3d3d363d73${TARGET.slice(2)}5af43d82803e903d91602b57fd5bf300`)).toBeNull()
    expect(cloneTarget(`0x363d3d373d3d3d363d74${TARGET.slice(2)}5af43d82803e903d91602b57fd5bf3`)).toBeNull()
    expect(cloneTarget(`0x363d3d373d3d3d363d73${TARGET.slice(4)}5af43d82803e903d91602b57fd5bf3`)).toBeNull()
    expect(cloneTarget('0x')).toBeNull()
  })
})

describe('slotAddress', () => {
  test('an address in the low 20 bytes of a word', () => {
    expect(slotAddress(`0x000000000000000000000000${TARGET.slice(2)}`)?.toLowerCase()).toBe(TARGET)
    // nodes may drop leading zeros
    expect(slotAddress(`0x${TARGET.slice(2)}`)?.toLowerCase()).toBe(TARGET)
  })

  test('an empty slot, a word with high bytes, or no word names no address', () => {
    expect(slotAddress(`0x${'0'.repeat(64)}`)).toBeNull()
    expect(slotAddress(`0x01${'0'.repeat(22)}${TARGET.slice(2)}`)).toBeNull()
    expect(slotAddress(undefined)).toBeNull()
    expect(slotAddress('0xzz')).toBeNull()
  })
})
