import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import type { Member } from '../../src/arcade/room.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { startArcade, type RunningArcade } from './helpers/arcade.ts'
import { rawUpgrade, stalledClient } from '../helpers/rawHttp.ts'
import { TestSocket } from './helpers/socketClient.ts'

const SITE = 'https://site.example'
let chain: DevChain
let running: RunningArcade
const open: TestSocket[] = []

beforeAll(async () => {
  chain = await startDevChain({ seed: false })
  // One trusted proxy: the client address is the right-hand end of X-Forwarded-For, so the test
  // can speak for many addresses from one machine. Every cap is the default.
  running = await startArcade(chain.anvil, `trustedProxyHops = 1\ncorsOrigins = ["${SITE}"]\n`)
})
afterEach(async () => {
  await Promise.all(open.splice(0).map((socket) => socket.close()))
  await waitFor(() => running.arcade.admission.total === 0, 'every socket to be released', 5000)
})
afterAll(async () => {
  await running?.stop()
  await chain?.stop()
})

async function join(room: string, address: string, headers: Record<string, string> = {}) {
  const socket = await TestSocket.open(running.ws(room), { 'x-forwarded-for': address, ...headers })
  open.push(socket)
  await socket.next((frame) => frame.type === 'hello')
  return socket
}

const stats = async () => (await fetch(`${running.service.url}/api/stats`)).json() as Promise<Record<string, any>>

describe('refused at the upgrade, before any handshake, with a JSON status the client sees', () => {
  test('an Origin not on the allowlist is 403; an allowed one and the arcade’s own are let in', async () => {
    const refused = await rawUpgrade(running.ws('coinflip'), { Origin: 'https://evil.example' })
    expect(refused.status).toBe(403)
    expect(refused.headers['content-type']).toStartWith('application/json')
    expect(refused.headers['cache-control']).toBe('no-store')
    expect(JSON.parse(refused.body)).toEqual({ error: 'origin not allowed' })
    expect(refused.headers['sec-websocket-accept']).toBeUndefined()

    expect((await rawUpgrade(running.ws('coinflip'), { Origin: SITE })).status).toBe(101)
    expect((await rawUpgrade(running.ws('coinflip'), { Origin: `http://127.0.0.1:${running.service.port}` })).status).toBe(101)
    await join('coinflip', '198.51.100.1', { origin: SITE })
  })

  test('an unknown room is 404, and a request that is no upgrade is 426', async () => {
    const unknown = await rawUpgrade(running.ws('poker'))
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toEqual({ error: 'no room named "poker"' })
    const plain = await fetch(`${running.service.url}/ws/coinflip`)
    expect(plain.status).toBe(426)
    expect(await plain.json()).toEqual({ error: 'expected a WebSocket upgrade' })
    expect((await stats()).refusals.unknownRoom).toBe(1)
  })

  test('the 9th socket from one address is 429; other addresses still get in; a closed socket frees a place', async () => {
    const address = '203.0.113.7'
    const eight = []
    for (let index = 0; index < 8; index++) eight.push(await join(['dice', 'crash'][index % 2]!, address))
    // The left-hand entries are whatever the client wrote: they change nothing.
    const ninth = await rawUpgrade(running.ws('slots'), { 'X-Forwarded-For': `10.9.9.9, ${address}` })
    expect(ninth.status).toBe(429)
    expect(JSON.parse(ninth.body).error).toContain('too many sockets from 203.0.113.7')
    await join('slots', '203.0.113.8')
    await eight[0]!.close()
    await waitFor(() => running.arcade.admission.total === 8, 'the closed socket to be released', 5000)
    await join('slots', address)
    expect((await stats()).refusals.tooManyFromAddress).toBe(1)
  })

  test('the 257th socket is 429, whatever its address', async () => {
    const rooms = running.arcade.settings.rooms
    const opening = []
    for (let index = 0; index < 256; index++) opening.push(join(rooms[index % rooms.length]!, `10.0.${Math.floor(index / 8)}.1`))
    await Promise.all(opening)
    const body = await stats()
    expect(body.sockets.total).toBe(256)
    expect(Object.values(body.sockets.byRoom)).toEqual([32, 32, 32, 32, 32, 32, 32, 32])
    const extra = await rawUpgrade(running.ws('coinflip'), { 'X-Forwarded-For': '192.0.2.200' })
    expect(extra.status).toBe(429)
    expect(JSON.parse(extra.body).error).toContain('too many sockets')
    expect((await stats()).refusals.tooManySockets).toBe(1)
  })
})

describe('ejected from an open socket, with a close code and reason', () => {
  test('a frame of 4 KiB is read; one of 5 KiB closes the socket with 1009', async () => {
    const socket = await join('roulette', '192.0.2.1')
    const bystander = await join('roulette', '192.0.2.2')
    const exactly4k = JSON.stringify({ type: 'ping', id: 'edge' }).padEnd(4096, ' ')
    socket.send(exactly4k)
    await socket.next((frame) => frame.type === 'pong' && frame.id === 'edge')
    socket.send(JSON.stringify({ type: 'ping', id: 'x'.repeat(5 * 1024) }))
    const closed = await socket.closed
    expect(closed.code).toBe(1009)
    await waitFor(async () => (await stats()).ejections.frameTooLarge === 1, 'the ejection to be counted', 3000)
    bystander.send({ type: 'ping' })
    await bystander.next((frame) => frame.type === 'pong')
  })

  test('a flood past the burst closes the socket with 1008 after at most the burst is answered', async () => {
    const socket = await join('mines', '192.0.2.3')
    for (let index = 0; index < 100; index++) socket.send({ type: 'ping', id: index })
    const closed = await socket.closed
    expect(closed).toEqual({ code: 1008, reason: 'message rate exceeded' })
    expect(socket.ofType('pong').length).toBeLessThanOrEqual(40)
    expect(socket.ofType('pong').length).toBeGreaterThanOrEqual(39)
    expect((await stats()).ejections.rateLimited).toBe(1)
  })

  test('a client that never reads is cut at 512 KiB behind while the others keep receiving everything', async () => {
    const reader = await join('lottery', '192.0.2.4')
    const stalled = await stalledClient(running.ws('lottery'))
    const room = running.arcade.rooms.get('lottery')!
    await waitFor(() => room.size === 2, 'both sockets in the room', 5000)
    const stalledMember = [...room.members].find((member: Member) => member.address === '127.0.0.1')!

    // The chain cannot make frames fast enough to fill the kernel's buffers (megabytes on
    // loopback) before Bun's: apply mini-blocks to the relay directly, as the node follower does.
    const first = 50_000_000
    let number = first
    let mostBehind = 0
    const started = performance.now()
    while (!stalledMember.ejected && number < first + 400_000) {
      for (let index = 0; index < 200; index++, number++) {
        running.arcade.relay.apply({ number, block: number, hash: '0x00', timestampUs: 1_700_000_000_000_000 + number, txCount: 0 }, [])
      }
      if (!stalledMember.ejected) mostBehind = Math.max(mostBehind, stalledMember.socket.getBufferedAmount())
      // A turn of the event loop, in which the sockets write what they can.
      await Bun.sleep(0)
    }
    const last = number - 1
    expect(stalledMember.ejected).toBe('backlog')
    // Cut at the limit: it got close to 512 KiB behind, and never past it.
    expect(mostBehind).toBeGreaterThan(400 * 1024)
    expect(mostBehind).toBeLessThanOrEqual(512 * 1024)
    const body = await stats()
    expect(body.ejections.backlog).toBe(1)
    expect(body.sockets.byRoom.lottery).toBe(1)

    // The reader got every frame, in order, and is still open and served.
    await reader.next((frame) => frame.type === 'head' && frame.number === last, { timeoutMs: 20_000 })
    const heads = reader.ofType('head').filter((frame) => frame.number >= first)
    expect(heads).toHaveLength(last - first + 1)
    expect(heads.every((frame, index) => frame.number === first + index)).toBe(true)
    reader.send({ type: 'ping', id: 'after' })
    await reader.next((frame) => frame.type === 'pong' && frame.id === 'after')
    console.log(`backlog cut after ${last - first + 1} frames in ${Math.round(performance.now() - started)} ms`)
    stalled.destroy()
  }, 60_000)
})
