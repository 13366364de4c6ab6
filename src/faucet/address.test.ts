import { expect, test } from 'bun:test'
import { parseDripAddress } from './address.ts'

const CHECKSUMMED = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

test('an address in any single case, with or without 0x, comes back checksummed', () => {
  expect(parseDripAddress(CHECKSUMMED)).toBe(CHECKSUMMED)
  expect(parseDripAddress(CHECKSUMMED.toLowerCase())).toBe(CHECKSUMMED)
  expect(parseDripAddress(`0x${CHECKSUMMED.slice(2).toUpperCase()}`)).toBe(CHECKSUMMED)
  expect(parseDripAddress(CHECKSUMMED.slice(2).toLowerCase())).toBe(CHECKSUMMED)
  expect(parseDripAddress(` ${CHECKSUMMED} `)).toBe(CHECKSUMMED)
})

test('anything else is not an address', () => {
  for (const input of [
    '',
    '0x',
    'hello',
    CHECKSUMMED.slice(0, 41),
    `${CHECKSUMMED}00`,
    CHECKSUMMED.replace('C5', 'c5'), // a broken checksum
    '0x0000000000000000000000000000000000000000',
    42,
    null,
    undefined,
    { address: CHECKSUMMED },
  ]) {
    expect(parseDripAddress(input)).toBeNull()
  }
})
