import { expect, test } from 'bun:test'
import { currentSection } from './nav.ts'

const entries = ['/blocks', '/txs', '/tokens', '/nfts', '/accounts', '/fees', '/exchange']

test('a page marks its own menu entry, a detail page the list it belongs to, any other none', () => {
  expect(currentSection('/blocks', entries)).toBe('/blocks')
  expect(currentSection('/block/12', entries)).toBe('/blocks')
  expect(currentSection('/mini/3', entries)).toBe('/blocks')
  expect(currentSection('/tx/0xab', entries)).toBe('/txs')
  expect(currentSection('/token/0xab', entries)).toBe('/tokens')
  expect(currentSection('/nft/0xab/1', entries)).toBe('/nfts')
  expect(currentSection('/exchange/pool/0xab', entries)).toBe('/exchange')
  expect(currentSection('/address/0xab', entries)).toBe('/accounts')
  expect(currentSection('/', entries)).toBeNull()
  expect(currentSection('/name/alice', entries)).toBeNull()
  expect(currentSection('/nothing', entries)).toBeNull()
  // An alias names only an entry the menu has.
  expect(currentSection('/tx/0xab', ['/blocks'])).toBeNull()
})
