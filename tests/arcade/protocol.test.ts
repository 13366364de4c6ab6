import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { placeFlip, settleFlip, startArcade, type RunningArcade } from './helpers/arcade.ts'
import { TestSocket, type Frame } from './helpers/socketClient.ts'

let chain: DevChain
let running: RunningArcade
const open: TestSocket[] = []

beforeAll(async () => {
  chain = await startDevChain({ seed: false })
  running = await startArcade(chain.anvil)
})
// Every socket here comes from 127.0.0.1, which may hold 8: close them after each test.
afterEach(async () => {
  await Promise.all(open.splice(0).map((socket) => socket.close()))
})
afterAll(async () => {
  await running?.stop()
  await chain?.stop()
})

async function join(room = 'coinflip') {
  const socket = await TestSocket.open(running.ws(room))
  open.push(socket)
  await socket.next((frame) => frame.type === 'hello')
  return socket
}

const json = async (path: string) => (await fetch(`${running.service.url}${path}`)).json() as Promise<Record<string, any>>

describe('the arcade socket protocol on a real chain', () => {
  test('hello on join: the room, the head mini-block, the socket count and the room events', async () => {
    // The arcade read the node's head when its socket opened; an empty block follows.
    await chain.mine()
    const mined = Number((await chain.clients.publicClient.getBlock({ blockTag: 'latest' })).number)
    await waitFor(() => running.arcade.relay.head?.number === mined, 'the mined head', 5000)
    const bankEvents = ['Deposited', 'FeeRouterSet', 'GameEnabled', 'HouseFunded', 'Settled', 'Skimmed', 'Staked', 'Withdrawn']
    const socket = await join('dice')
    const [hello] = socket.frames
    expect(hello).toEqual({
      type: 'hello',
      room: 'dice',
      head: running.arcade.relay.head,
      sockets: 1,
      events: [...bankEvents, 'DicePlaced', 'DiceRefunded', 'DiceRolled'],
      recent: expect.any(Array),
    })
    expect(hello!.head).toMatchObject({ number: mined, block: mined, timestamp_us: expect.any(Number), txCount: 0 })
    const coinflip = await join('coinflip')
    const { events, recent } = coinflip.frames[0]!
    expect(events).toEqual([...bankEvents, 'FlipPlaced', 'FlipRefunded', 'FlipSettled'])
    // The arcade started after the contracts were deployed: it read the blocks just before its
    // first head, so each room already knows the bank's set-up, and of the games enabled only its own.
    expect(recent.map((event: Frame) => event.name)).toEqual(['GameEnabled', 'HouseFunded', 'FeeRouterSet'])
    expect(recent[0]).toMatchObject({ contract: chain.manifest.contracts.ArcadeBank, args: { game: chain.manifest.contracts.CoinFlip, enabled: true } })
    expect(recent[1]).toMatchObject({ contract: chain.manifest.contracts.ArcadeBank, args: { from: devAccounts.treasury.address, amount: '100000000000000000000' } })
    expect(recent[2]).toMatchObject({ args: { feeRouter: chain.manifest.contracts.FeeRouter } })
    expect(hello!.recent.map((event: Frame) => [event.name, event.args.game ?? null])).toEqual([
      ['HouseFunded', null],
      ['GameEnabled', chain.manifest.contracts.Dice],
      ['FeeRouterSet', null],
    ])
  })

  test('a head frame per applied mini-block in every room, with timestamp_us in microseconds', async () => {
    const dice = await join('dice')
    const lottery = await join('lottery')
    await chain.mine()
    const block = await chain.clients.publicClient.getBlock({ blockTag: 'latest' })
    const number = Number(block.number)
    const expected = { type: 'head', number, block: number, timestamp_us: Number(block.timestamp) * 1_000_000, txCount: 0 }
    expect(await dice.next((frame) => frame.type === 'head' && frame.number === number)).toEqual(expected)
    expect(await lottery.next((frame) => frame.type === 'head' && frame.number === number)).toEqual(expected)
  })

  test('event frames after a real on-chain play, decoded with the bound ABI, amounts as decimal strings', async () => {
    const socket = await join('coinflip')
    const elsewhere = await join('dice')
    const placed = await placeFlip(chain, devAccounts.bob, false, '0.25')
    const placedFrame = await socket.next((frame) => frame.type === 'event' && frame.name === 'FlipPlaced')
    expect(placedFrame).toEqual({
      type: 'event',
      contract: chain.manifest.contracts.CoinFlip,
      name: 'FlipPlaced',
      args: { betId: String(placed.betId), player: devAccounts.bob.address, heads: false, stake: '250000000000000000', placedAt: String(placed.block) },
      txHash: placed.txHash,
      logIndex: expect.any(Number),
      block: placed.block,
      miniBlock: placed.block,
    })
    const staked = await socket.next((frame) => frame.type === 'event' && frame.name === 'Staked')
    expect(staked).toMatchObject({ contract: chain.manifest.contracts.ArcadeBank, txHash: placed.txHash, args: { amount: '250000000000000000', reserved: '495000000000000000' } })
    // The head of the play's block came with its transaction count, before its events.
    const headIndex = socket.frames.findIndex((frame) => frame.type === 'head' && frame.number === placed.block)
    expect(socket.frames[headIndex]!.txCount).toBe(1)
    expect(headIndex).toBeLessThan(socket.frames.indexOf(placedFrame))

    const settled = await settleFlip(chain, placed.betId)
    const settledFrame = await socket.next((frame) => frame.type === 'event' && frame.name === 'FlipSettled')
    expect(settledFrame).toMatchObject({ txHash: settled.txHash, block: settled.block, args: { betId: String(placed.betId), heads: false } })
    expect(['0', '495000000000000000']).toContain(settledFrame.args.payout)
    expect(settledFrame.args.payout === '0').toBe(settledFrame.args.landedHeads === true)
    // Other rooms get the heads and the bank's deposit, not the coin flip's events.
    await elsewhere.next((frame) => frame.type === 'head' && frame.number === settled.block)
    expect(elsewhere.ofType('event').map((frame) => frame.name)).toEqual(['Deposited'])

    const rooms = await json('/api/rooms')
    const coinflip = rooms.rooms.find((room: { name: string }) => room.name === 'coinflip')
    expect(coinflip.lastEvent).toEqual(Object.fromEntries(Object.entries(settledFrame).filter(([key]) => key !== 'type')))
    expect(coinflip.contracts).toEqual([
      { address: chain.manifest.contracts.ArcadeBank, abi: 'ArcadeBank' },
      { address: chain.manifest.contracts.CoinFlip, abi: 'CoinFlip' },
    ])
  })

  test('presence when the room count changes, to the others in the room', async () => {
    const first = await join('plinko')
    const second = await join('plinko')
    expect(second.frames[0]).toMatchObject({ type: 'hello', sockets: 2 })
    expect(await first.next((frame) => frame.type === 'presence')).toEqual({ type: 'presence', room: 'plinko', sockets: 2 })
    const since = first.frames.length
    await second.close()
    open.splice(open.indexOf(second), 1)
    expect(await first.next((frame) => frame.type === 'presence', { since })).toEqual({ type: 'presence', room: 'plinko', sockets: 1 })
  })

  test('ping is answered pong, with the id given', async () => {
    const socket = await join('mines')
    socket.send({ type: 'ping' })
    expect(await socket.next((frame) => frame.type === 'pong')).toEqual({ type: 'pong' })
    const since = socket.frames.length
    socket.send({ type: 'ping', id: 'p-42' })
    expect(await socket.next((frame) => frame.type === 'pong', { since })).toEqual({ type: 'pong', id: 'p-42' })
  })

  test('subscribe and unsubscribe choose which events arrive', async () => {
    const socket = await join('coinflip')
    socket.send({ type: 'unsubscribe', events: ['Deposited', 'Staked', 'Settled', 'FlipPlaced'] })
    const ack = await socket.next((frame) => frame.type === 'subscribed')
    expect(ack.events).toEqual(['FeeRouterSet', 'GameEnabled', 'HouseFunded', 'Skimmed', 'Withdrawn', 'FlipRefunded', 'FlipSettled'])
    const since = socket.frames.length
    socket.send({ type: 'subscribe', events: ['FlipPlaced'] })
    expect((await socket.next((frame) => frame.type === 'subscribed', { since })).events).toContain('FlipPlaced')

    const placed = await placeFlip(chain, devAccounts.alice, true, '0.1')
    await socket.next((frame) => frame.type === 'event' && frame.name === 'FlipPlaced' && frame.txHash === placed.txHash)
    await socket.next((frame) => frame.type === 'head' && frame.number === placed.block)
    const names = socket.frames.filter((frame: Frame) => frame.type === 'event' && frame.block >= placed.block - 1).map((frame) => frame.name)
    expect(names).not.toContain('Deposited')
    expect(names).not.toContain('Staked')
  })

  test('any other frame gets an error frame, and the socket stays open', async () => {
    const socket = await join('slots')
    const bad = ['not json', '42', '[]', '{"type":"bet","amount":"1"}', '{"type":"subscribe","events":["Nope"]}']
    for (const text of bad) socket.send(text)
    await waitFor(() => socket.ofType('error').length === bad.length, 'the error frames', 3000)
    for (const frame of socket.ofType('error')) expect(typeof frame.error).toBe('string')
    expect(socket.ofType('error')[3]!.error).toContain('unknown frame type "bet"')
    expect(socket.ofType('error')[4]!.error).toContain('no event named Nope in room slots')
    socket.send({ type: 'ping' })
    await socket.next((frame) => frame.type === 'pong')
  })

  test('/api/stats counts sockets per room, the head, frames in and out', async () => {
    await join('plinko')
    await join('plinko')
    await join('crash')
    await chain.mine()
    const latest = Number((await chain.clients.publicClient.getBlock({ blockTag: 'latest' })).number)
    await waitFor(async () => (await json('/api/stats')).head?.number === latest, 'the stats at the mined head', 5000)
    const stats = await json('/api/stats')
    expect(stats.sockets.total).toBe(3)
    expect(stats.sockets.byRoom).toEqual({ coinflip: 0, dice: 0, crash: 1, roulette: 0, slots: 0, plinko: 2, mines: 0, lottery: 0 })
    expect(stats.node.connected).toBe(true)
    expect(stats.frames.in).toBeGreaterThan(5)
    expect(stats.frames.out).toBeGreaterThan(stats.frames.in)
    expect(stats.ejections).toEqual({ frameTooLarge: 0, rateLimited: 0, backlog: 0 })
    expect((await fetch(`${running.service.url}/api/ready`)).status).toBe(200)
  })
})
