import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { devAccounts } from '../../src/devnet/accounts.ts'
import type { Manifest } from '../../src/devnet/deploy.ts'
import { devNode } from '../helpers/devChain.ts'
import { configDir, fromSource, startStack, type RunningStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'
import { placeFlip } from './helpers/arcade.ts'
import { TestSocket, type Frame } from './helpers/socketClient.ts'
import { launchChromium } from '../helpers/browser.ts'

let stack: RunningStack
let dir: string
let arcade: string
const wsUrl = (room: string) => `${arcade.replace(/^http/, 'ws')}/ws/${room}`

beforeAll(async () => {
  const config = configDir('[dev]\nport = 0\n')
  dir = config.dir
  stack = await startStack(fromSource, ['dev', '--config', config.file], { cwd: dir, timeoutMs: 60_000 })
  arcade = stack.urls.arcade!
  await waitFor(async () => (await fetch(`${arcade}/api/ready`)).status === 200, 'the arcade to be ready', 10_000)
  // The seed's last transaction is the chain's head when the arcade starts; once it is applied
  // every room has its game's seeded plays (a socket joining earlier gets the rest as event frames).
  const lastEvents = async () => ((await (await fetch(`${arcade}/api/rooms`)).json()) as { rooms: Array<{ lastEvent: { name: string } | null }> }).rooms.map((room) => room.lastEvent?.name)
  const outcomes = ['FlipSettled', 'DiceRolled', 'Crashed', 'RouletteSpun', 'SlotsSpun', 'PlinkoDropped', 'MinesRevealed', 'LotteryDrawn']
  await waitFor(async () => Bun.deepEquals(await lastEvents(), outcomes), 'the seeded plays of every game', 5000)
}, 60_000)
afterAll(() => {
  stack?.child.kill('SIGKILL')
})

test('a browser on the arcade’s own origin joins a room; a page of another origin is refused', async () => {
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(`${arcade}/api/health`)
    const frames = (await page.evaluate(async (url) => {
      const ws = new WebSocket(url)
      const received: Array<Record<string, any>> = []
      ws.onmessage = (event) => received.push(JSON.parse(event.data))
      // Until the hello and a head have come (a block a second under stack dev).
      for (let waited = 0; waited < 5000 && !received.some((frame) => frame.type === 'head'); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      ws.close()
      return received
    }, wsUrl('coinflip'))) as Frame[]
    expect(frames[0]).toMatchObject({ type: 'hello', room: 'coinflip', sockets: 1 })
    expect(frames[0]!.recent.map((event: Frame) => event.name)).toContain('FlipSettled')
    expect(frames.some((frame) => frame.type === 'head')).toBe(true)

    // A page with another origin (here a data: URL, whose Origin is "null") gets no socket.
    await page.goto('data:text/html,<p>elsewhere</p>')
    const outcome = await page.evaluate(
      (url) =>
        new Promise((resolve) => {
          const ws = new WebSocket(url)
          ws.onopen = () => resolve('open')
          ws.onerror = () => resolve('refused')
        }),
      wsUrl('coinflip'),
    )
    expect(outcome).toBe('refused')
  } finally {
    await browser.close()
  }
}, 30_000)

test('stack dev relays seeded plays, a head every block and a new play as it happens; stopping closes the sockets', async () => {
  // What a browser sends from a page of the arcade's own origin (any other needs arcade.corsOrigins).
  const socket = await TestSocket.open(wsUrl('coinflip'), { origin: arcade })
  try {
    const hello = await socket.next((frame) => frame.type === 'hello')
    // The seeded flips were played before the arcade started; it read the blocks before its first head.
    const names = hello.recent.map((event: Frame) => event.name)
    expect(names.filter((name: string) => name === 'FlipSettled')).toHaveLength(4)
    expect(names).toContain('Withdrawn')
    expect(names.at(-1)).toBe('FlipSettled')
    const head = await socket.next((frame) => frame.type === 'head' && frame.number > hello.head.number, { timeoutMs: 5000 })
    expect(head.block).toBe(head.number)

    const started = stack.lines.find((line) => line.msg === 'dev chain started')!
    const manifest = JSON.parse(readFileSync(`${dir}/data/l2-addresses.json`, 'utf8')) as Manifest
    const chain = { ...devNode(started.rpc as string), manifest }
    const placed = await placeFlip(chain, devAccounts.carol, true, '1')
    const event = await socket.next((frame) => frame.type === 'event' && frame.name === 'FlipPlaced' && frame.txHash === placed.txHash, { timeoutMs: 5000 })
    expect(event.args).toMatchObject({ player: devAccounts.carol.address, heads: true, stake: '1000000000000000000' })

    // Stopping with a socket still open closes it as going away, and exits 0 without waiting on it.
    const stopping = performance.now()
    expect(await stack.stop()).toBe(0)
    expect(performance.now() - stopping).toBeLessThan(5000)
    expect(await socket.closed).toEqual({ code: 1001, reason: 'the arcade is stopping' })
  } finally {
    socket.ws.close()
  }
}, 60_000)
