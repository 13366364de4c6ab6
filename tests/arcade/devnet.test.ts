import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { devClients, type Manifest } from '../../src/devnet/deploy.ts'
import { configDir, fromSource, startStack } from '../helpers/stack.ts'
import { placeFlip, waitFor, type ArcadeChain } from './helpers/arcade.ts'
import { TestSocket, type Frame } from './helpers/socketClient.ts'

test('stack dev serves rooms a page can join: seeded plays, heads every block, and a new play as it happens', async () => {
  const { dir, file } = configDir('[dev]\nport = 0\n')
  const stack = await startStack(fromSource, ['dev', '--config', file], { cwd: dir, timeoutMs: 60_000 })
  let socket: TestSocket | undefined
  try {
    const arcade = stack.urls.arcade!
    await waitFor(async () => (await fetch(`${arcade}/api/ready`)).status === 200, 10_000, 'the arcade to be ready')
    // The seed's last transaction is the chain's head when the arcade starts; once it is applied
    // the room has every seeded play (a socket joining earlier gets the rest as event frames).
    const coinflipLast = async () => ((await (await fetch(`${arcade}/api/rooms`)).json()) as { rooms: Array<{ name: string; lastEvent: { name: string } | null }> }).rooms[0]!.lastEvent?.name
    await waitFor(async () => (await coinflipLast()) === 'Withdrawn', 5000, 'the seeded plays')
    // What a browser sends from a page of the arcade's own origin (any other needs arcade.corsOrigins).
    socket = await TestSocket.open(`${arcade.replace(/^http/, 'ws')}/ws/coinflip`, { origin: arcade })
    const hello = await socket.next((frame) => frame.type === 'hello')
    // The seeded flips were played before the arcade started; it read the blocks before its first head.
    const names = hello.recent.map((event: Frame) => event.name)
    expect(names.filter((name: string) => name === 'FlipSettled')).toHaveLength(4)
    expect(names.at(-1)).toBe('Withdrawn')
    const head = await socket.next((frame) => frame.type === 'head' && frame.number > hello.head.number, { timeoutMs: 5000 })
    expect(head.block).toBe(head.number)

    const started = stack.lines.find((line) => line.msg === 'dev chain started')!
    const manifest = JSON.parse(readFileSync(`${dir}/data/l2-addresses.json`, 'utf8')) as Manifest
    const chain = { clients: devClients(started.rpc as string), manifest } as unknown as ArcadeChain
    const placed = await placeFlip(chain, devAccounts.carol, true, '1')
    const event = await socket.next((frame) => frame.type === 'event' && frame.name === 'FlipPlaced' && frame.txHash === placed.txHash, { timeoutMs: 5000 })
    expect(event.args).toMatchObject({ player: devAccounts.carol.address, heads: true, stake: '1000000000000000000' })

    // Stopping with a socket still open closes it as going away, and exits 0 without waiting on it.
    const stopping = performance.now()
    expect(await stack.stop()).toBe(0)
    expect(performance.now() - stopping).toBeLessThan(5000)
    expect(await socket.closed).toEqual({ code: 1001, reason: 'the arcade is stopping' })
  } finally {
    socket?.ws.close()
    stack.child.kill('SIGKILL')
  }
}, 60_000)
