import { expect, test } from 'bun:test'
import { routeLabels } from './routeLabels.ts'

const label = routeLabels([
  { method: 'GET', path: '/api/stats' },
  { method: 'GET', path: '/api/' },
  { method: 'GET', path: '/api/tx/:hash' },
  { method: 'GET', path: '/api/nft/:address' },
  { method: 'GET', path: '/api/nft/:address/:tokenId' },
  { method: 'GET', path: '/api/nft/top' },
  { method: 'GET', path: '/exchange' },
  { method: 'GET', path: '/exchange/*' },
  { method: 'GET', path: '/nft/*' },
  { method: 'POST', path: '/drip' },
])

test('a path is labelled with the pattern of the route it matches, never with itself', () => {
  expect(label('/api/stats')).toBe('/api/stats')
  expect(label('/api/stats/')).toBe('/api/stats')
  expect(label('/api/')).toBe('/api/')
  expect(label('/api/tx/0xabc')).toBe('/api/tx/:hash')
  expect(label('/api/nft/0x1/7')).toBe('/api/nft/:address/:tokenId')
  expect(label('/api/nft/top')).toBe('/api/nft/top')
  expect(label('/exchange')).toBe('/exchange')
  expect(label('/exchange/pool/0x12')).toBe('/exchange/*')
  expect(label('/nft/0x1/2')).toBe('/nft/*')
  expect(label('/drip')).toBe('/drip')
})

test('a path no route matches has no label of its own', () => {
  for (const path of ['/nope', '/nft', '/api/tx', '/api/tx/', '/api/tx/0xabc/more', '/api/nft/0x1/7/8', `/${'x'.repeat(500)}`]) expect(label(path)).toBeNull()
})
