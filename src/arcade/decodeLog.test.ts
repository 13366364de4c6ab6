import { expect, test } from 'bun:test'
import { encodeAbiParameters, encodeEventTopics, getAddress } from 'viem'
import { ARCADE_ABIS } from './abis.ts'
import { decodeLog, toWire } from './decodeLog.ts'

const player = getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906')

test('a log of the bound ABI: its name, and integers as decimal strings', () => {
  const abi = ARCADE_ABIS.CoinFlip
  const topics = encodeEventTopics({ abi, eventName: 'FlipPlaced', args: { betId: 12n, player } })
  const data = encodeAbiParameters([{ type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }], [true, 2n ** 70n, 99n])
  expect(decodeLog(abi, { topics: topics as `0x${string}`[], data })).toEqual({
    name: 'FlipPlaced',
    args: { betId: '12', player, heads: true, stake: '1180591620717411303424', placedAt: '99' },
  })
})

test('a log the ABI does not declare is not decoded', () => {
  const topics = encodeEventTopics({ abi: ARCADE_ABIS.ArcadeBank, eventName: 'Deposited', args: { player } })
  expect(decodeLog(ARCADE_ABIS.CoinFlip, { topics: topics as `0x${string}`[], data: encodeAbiParameters([{ type: 'uint256' }], [1n]) })).toBeNull()
})

test('wire values: no JSON number for an integer, nested values converted', () => {
  expect(toWire(7)).toBe('7')
  expect(toWire([1n, { a: 2 }, 'x', false])).toEqual(['1', { a: '2' }, 'x', false])
})
