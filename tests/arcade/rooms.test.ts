import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { parseEther, type Address } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { startArcade, type RunningArcade } from './helpers/arcade.ts'
import { TestSocket, type Frame } from './helpers/socketClient.ts'

// The arcade with its default bindings on a seeded dev chain: every room is bound to the bank and
// to its own game, relays that game's plays and none of the others'.

/** Each room, the game contract bound to it and the event that says how a play ended. */
const ROOMS = [
  ['coinflip', 'CoinFlip', 'FlipSettled'],
  ['dice', 'Dice', 'DiceRolled'],
  ['crash', 'Crash', 'Crashed'],
  ['roulette', 'Roulette', 'RouletteSpun'],
  ['slots', 'Slots', 'SlotsSpun'],
  ['plinko', 'Plinko', 'PlinkoDropped'],
  ['mines', 'Mines', 'MinesRevealed'],
  ['lottery', 'Lottery', 'LotteryDrawn'],
] as const

let chain: DevChain
let running: RunningArcade
const open: TestSocket[] = []

beforeAll(async () => {
  chain = await startDevChain()
  running = await startArcade(chain.anvil)
  // The arcade reads the blocks before its first head: the seeded plays.
  await waitFor(async () => (await rooms()).every((room) => room.lastEvent !== null), 'every room to have relayed the seeded plays', 10_000)
})
afterEach(async () => {
  await Promise.all(open.splice(0).map((socket) => socket.close()))
})
afterAll(async () => {
  await running?.stop()
  await chain?.stop()
})

type RoomEntry = { name: string; events: string[]; contracts: Array<{ address: Address; abi: string }>; lastEvent: Frame | null }
const rooms = async () => ((await (await fetch(`${running.service.url}/api/rooms`)).json()) as { rooms: RoomEntry[] }).rooms
const addressOf = (game: (typeof ROOMS)[number][1]) => chain.manifest.contracts[game]

async function join(room: string) {
  const socket = await TestSocket.open(running.ws(room))
  open.push(socket)
  await socket.next((frame) => frame.type === 'hello')
  return socket
}

test("every room shows its game's last play, and relays only its game and the bank's events about it", async () => {
  const bank = chain.manifest.contracts.ArcadeBank
  const entries = await rooms()
  expect(entries.map((entry) => entry.name)).toEqual(ROOMS.map(([room]) => room))
  for (const [room, game, outcome] of ROOMS) {
    const entry = entries.find((candidate) => candidate.name === room)!
    expect(entry.contracts).toEqual([
      { address: bank, abi: 'ArcadeBank' },
      { address: addressOf(game), abi: game },
    ])
    expect(entry.events).toContain(outcome)
    expect(entry.events).toContain('Skimmed')
    expect(entry.lastEvent).toMatchObject({ contract: addressOf(game), name: outcome })

    const socket = await join(room)
    const recent = socket.frames[0]!.recent as Frame[]
    expect(recent.length).toBeGreaterThan(2)
    for (const event of recent) {
      expect([bank, addressOf(game)]).toContain(event.contract)
      // The bank's events about a game are about this room's game only.
      if (event.args.game !== undefined) expect(event.args.game).toBe(addressOf(game))
    }
    // The room's own game, and the bank's stake and skim for it, are among its last events.
    const names = recent.map((event) => event.name)
    expect(names).toContain(outcome)
    expect(names).toContain('Settled')
  }
})

test('a new dice roll is relayed to the dice room, and the coin flip room hears nothing of it', async () => {
  const diceRoom = await join('dice')
  const coinflipRoom = await join('coinflip')
  const placed = await chain.write(devAccounts.bob, chain.manifest.contracts.Dice, ours.Dice.abi, 'place', [40, parseEther('0.1')])
  const block = Number(placed.blockNumber)
  const rolled = await diceRoom.next((frame) => frame.type === 'event' && frame.name === 'DicePlaced' && frame.txHash === placed.transactionHash)
  expect(rolled.args).toMatchObject({ player: devAccounts.bob.address, rollUnder: '40', stake: '100000000000000000' })
  const skimmed = await diceRoom.next((frame) => frame.type === 'event' && frame.name === 'Skimmed' && frame.txHash === placed.transactionHash)
  expect(skimmed.args).toEqual({ game: addressOf('Dice'), player: devAccounts.bob.address, feeRouter: chain.manifest.contracts.FeeRouter, amount: '500000000000000' })
  await coinflipRoom.next((frame) => frame.type === 'head' && frame.number === block)
  // The head of a mini-block comes before its events, and the next head after them all.
  await chain.mine()
  await coinflipRoom.next((frame) => frame.type === 'head' && frame.number === block + 1)
  expect(coinflipRoom.frames.filter((frame) => frame.type === 'event' && frame.txHash === placed.transactionHash)).toEqual([])
})
