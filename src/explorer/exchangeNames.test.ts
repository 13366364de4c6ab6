import { expect, test } from 'bun:test'
import { feePercent, poolName, type ExchangePool } from './exchangeNames.ts'

test('a fee in hundredths of a basis point as a percentage, in integers', () => {
  expect(feePercent(3000)).toBe('0.3%')
  expect(feePercent(500)).toBe('0.05%')
  expect(feePercent(100)).toBe('0.01%')
  expect(feePercent(10_000)).toBe('1%')
  expect(feePercent(12_345)).toBe('1.2345%')
  expect(feePercent(0)).toBe('0%')
})

test('a pair by its symbols and kind, a pool with its fee too', () => {
  const base = { address: '0x0000000000000000000000000000000000000001', token0: '0x0000000000000000000000000000000000000002', token1: '0x0000000000000000000000000000000000000003' } as const
  const pair: ExchangePool = { ...base, kind: 'v2', fee: null }
  const pool: ExchangePool = { ...base, kind: 'v3', fee: 3000 }
  expect(poolName(pair, ['BX', 'WETH'])).toBe('BX/WETH · V2')
  expect(poolName(pool, ['BX', 'WETH'])).toBe('BX/WETH · 0.3% · V3')
})
