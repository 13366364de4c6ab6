import { expect, test } from 'bun:test'
import { encodeAbiParameters, getAddress, type Address, type Hex } from 'viem'
import type { RpcLog } from '../chain/miniBlocks.ts'
import { ARCADE_ABIS, GAME_ARGUMENT, type ArcadeAbiName } from './abis.ts'
import { ArcadeStats } from './arcade.ts'
import { Delivery } from './delivery.ts'
import { Relay } from './relay.ts'
import { Room } from './room.ts'
import type { Binding } from './settings.ts'
import { eventTopics } from '../eth/events.ts'

const bank = getAddress('0xb7f8bc63bbcad18155201308c8f3540b07f84f5e')
const coinFlip = getAddress('0xa51c1fc2f0d1a1b8494ed1fe312d7c3a78ed91c0')
const dice = getAddress('0x0000000000000000000000000000000000000d1c')
const player = getAddress('0x90f79bf6eb2c4f870365e785982e1f101e93b906')

const bind = (room: string, address: Address, abiName: ArcadeAbiName): Binding => ({ room, address, abiName, abi: ARCADE_ABIS[abiName], gameArgument: GAME_ARGUMENT[abiName] ?? null })

function relayOf(bindings: Binding[]) {
  const stats = new ArcadeStats()
  const delivery = new Delivery(1 << 20, stats)
  const rooms = new Map(['coinflip', 'dice', 'slots'].map((name) => [name, new Room(name, [], [], delivery)]))
  return { relay: new Relay(rooms, bindings, stats), rooms }
}

let logIndex = 0
function bankLog(eventName: 'Staked' | 'Deposited', args: Record<string, unknown>, data: Hex): RpcLog {
  const topics = eventTopics(ARCADE_ABIS.ArcadeBank, eventName, args)
  return { address: bank, topics, data, blockNumber: '0x5', blockHash: `0x${'ab'.repeat(32)}`, transactionHash: `0x${'cd'.repeat(32)}`, transactionIndex: '0x0', logIndex: `0x${(logIndex++).toString(16)}`, removed: false } as RpcLog
}

const miniBlock = { number: 5, block: 5, hash: `0x${'ab'.repeat(32)}` as Hex, timestampUs: 5_000_000, txCount: 1 }
const staked = (game: Address) => bankLog('Staked', { game, player }, encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [10n, 20n]))
const deposited = () => bankLog('Deposited', { player }, encodeAbiParameters([{ type: 'uint256' }], [10n]))

test("the bank's events about a game go to the rooms that bind that game; its other events to every room that binds the bank", () => {
  const { relay, rooms } = relayOf([
    bind('coinflip', bank, 'ArcadeBank'),
    bind('coinflip', coinFlip, 'CoinFlip'),
    bind('dice', bank, 'ArcadeBank'),
    bind('dice', dice, 'Dice'),
    bind('slots', bank, 'ArcadeBank'),
  ])
  relay.apply(miniBlock, [staked(dice), staked(coinFlip), deposited()])
  const names = (room: string) => rooms.get(room)!.recent.map((event) => `${event.name}:${event.args.game ?? '-'}`)
  expect(names('coinflip')).toEqual([`Staked:${coinFlip}`, 'Deposited:-'])
  expect(names('dice')).toEqual([`Staked:${dice}`, 'Deposited:-'])
  // A room binding the bank and no game hears of no game's bets.
  expect(names('slots')).toEqual(['Deposited:-'])
})

test('a game contract bound without the bank relays all its events, and the bank bound alone to a room relays none of a game', () => {
  const { relay, rooms } = relayOf([bind('coinflip', bank, 'ArcadeBank'), bind('dice', dice, 'Dice')])
  relay.apply(miniBlock, [staked(dice)])
  expect(rooms.get('coinflip')!.recent).toEqual([])
  expect(rooms.get('dice')!.recent).toEqual([])
})
