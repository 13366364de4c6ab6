import { describe, expect, test } from 'bun:test'
import { addressKey, checksum, checksumOrNull, parseAddress, parseAddressAnyCase, parseConfigAddress } from './address.ts'

const CHECKSUMMED = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

describe('one rule for addresses a caller writes', () => {
  test('lower case, upper case and a correct checksum, with or without 0x', () => {
    for (const text of [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`, CHECKSUMMED.slice(2), CHECKSUMMED.slice(2).toLowerCase(), `0X${CHECKSUMMED.slice(2)}`]) {
      expect(parseAddress(text)).toBe(CHECKSUMMED)
    }
  })

  test('mixed case with a wrong checksum is a typo, not another address', () => {
    expect(parseAddress(CHECKSUMMED.replace('F', 'f'))).toBeNull()
    expect(parseAddress(CHECKSUMMED.slice(2).replace('b', 'B'))).toBeNull()
  })

  test('anything else is not an address', () => {
    for (const text of ['', '0x', `${CHECKSUMMED}00`, CHECKSUMMED.slice(0, 41), `0x${'g'.repeat(40)}`, ` ${CHECKSUMMED}`, `${CHECKSUMMED}\n`, null, 42, {}]) {
      expect(parseAddress(text)).toBeNull()
    }
  })
})

test('where a rule matches case-insensitively, a wrong checksum is the same address; nothing else is', () => {
  for (const text of [CHECKSUMMED, CHECKSUMMED.replace('F', 'f'), CHECKSUMMED.slice(2).replace('b', 'B'), `0X${CHECKSUMMED.slice(2).toLowerCase()}`]) {
    expect(parseAddressAnyCase(text)).toBe(CHECKSUMMED)
  }
  for (const text of ['', '0x', `${CHECKSUMMED}00`, `0x${'g'.repeat(40)}`, ` ${CHECKSUMMED}`, null, 42]) expect(parseAddressAnyCase(text)).toBeNull()
})

test('a trusted address, as bytes or in any case, checksummed', () => {
  expect(checksum(Buffer.from(CHECKSUMMED.slice(2), 'hex'))).toBe(CHECKSUMMED)
  expect(checksum(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED)
  expect(checksumOrNull(null)).toBeNull()
})

test('a config address takes 0x and, in mixed case, a correct checksum', () => {
  for (const text of [CHECKSUMMED, CHECKSUMMED.toLowerCase(), `0x${CHECKSUMMED.slice(2).toUpperCase()}`]) expect(parseConfigAddress(text)).toBe(CHECKSUMMED)
  for (const text of [CHECKSUMMED.replace('F', 'f'), CHECKSUMMED.slice(2), `0X${CHECKSUMMED.slice(2)}`, '', null]) expect(parseConfigAddress(text)).toBeNull()
})

test('one key for an address, from its text or its bytes: 40 lower-case hex digits', () => {
  const key = CHECKSUMMED.slice(2).toLowerCase()
  expect(addressKey(CHECKSUMMED)).toBe(key)
  expect(addressKey(Buffer.from(key, 'hex'))).toBe(key)
})
