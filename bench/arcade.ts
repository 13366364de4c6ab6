// bun run bench:arcade
//
// 256 sockets across the eight rooms of a real arcade, fed by a real anvil that makes a
// mini-block every 100 ms while a player flips coins. Measures the frames per second delivered and
// the delay from a mini-block being applied to each of its frames being received, then the same
// for a ceiling measured in the same run: a bare Bun.serve WebSocket server that publishes the same
// frames to the same number of sockets the moment the relay has them. The clients run in a child
// process, so that receiving does not share the event loop with sending; both processes stamp
// times with performance.timeOrigin + performance.now() on the same machine clock.
//
// Not a test: nothing here passes or fails on a number.

import { parseEther } from 'viem'
import { arcadeApp } from '../src/arcade/app.ts'
import { createArcade } from '../src/arcade/arcade.ts'
import { frames } from '../src/arcade/frames.ts'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { devAccounts } from '../src/devnet/accounts.ts'
import { ours } from '../src/devnet/artifacts.ts'
import { listen } from '../src/http/serve.ts'
import { createLogger } from '../src/log.ts'
import { decodeEvents, startDevChain, type DevChain } from '../tests/helpers/devChain.ts'
import { linesOf } from '../tests/helpers/lines.ts'
import { fmt, own, printTable, summarize } from './harness.ts'

const SOCKETS = 256
const BLOCK_TIME_S = 0.1
const WARMUP_S = 2
const MEASURE_S = 10
const now = () => performance.timeOrigin + performance.now()

type Received = { frames: Array<[number, number]>; opened: number; closed: number }

if (process.argv[2] === 'clients') await runClients(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]))
else await main()

/** The child: opens the sockets, then records (mini-block, time received) for every head and event frame. */
async function runClients(base: string, rooms: number, seconds: number) {
  const roomNames = JSON.parse(process.env.BENCH_ROOMS!) as string[]
  const received: Received = { frames: [], opened: 0, closed: 0 }
  const sockets: WebSocket[] = []
  await Promise.all(
    Array.from({ length: SOCKETS }, (_, index) => {
      const headers = { 'x-forwarded-for': `10.0.${Math.floor(index / 8)}.1` }
      const ws = new WebSocket(`${base}/ws/${roomNames[index % rooms]}`, { headers })
      sockets.push(ws)
      ws.onmessage = (event) => {
        const at = now()
        const frame = JSON.parse(String(event.data)) as { type: string; number?: number; miniBlock?: number }
        if (frame.type === 'head') received.frames.push([frame.number!, at])
        else if (frame.type === 'event') received.frames.push([frame.miniBlock!, at])
      }
      ws.onclose = () => received.closed++
      return new Promise<void>((resolve, reject) => {
        ws.onopen = () => {
          received.opened++
          resolve()
        }
        ws.onerror = () => reject(new Error('a socket did not open'))
      })
    }),
  )
  process.stdout.write('open\n')
  await Bun.sleep(seconds * 1000)
  // Written whole before exiting: a pipe takes a large write in pieces.
  await Bun.write(Bun.stdout, `${JSON.stringify(received)}\n`)
  for (const ws of sockets) ws.close()
  process.exit(0)
}

async function main() {
  const dev = await startDevChain({ seed: false, blockTime: BLOCK_TIME_S })
  const log = createLogger({ level: 'warn', pretty: false })
  const config = parseConfig(`[chain]\nrpc = "${dev.rpcUrl}"\nws = "${dev.wsUrl}"\n[arcade]\nport = 0\ntrustedProxyHops = 1\n`, null)
  const arcade = createArcade({ config, log, chain: createChain({ rpcUrl: dev.rpcUrl, wsUrl: dev.wsUrl, chainId: 78270 }) })
  const service = listen(arcadeApp(arcade, { config, log }), 'arcade', '127.0.0.1', 0)
  while (!arcade.nodeConnected()) await Bun.sleep(20)

  // Each mini-block's applied time, on the machine clock, for both phases.
  const applied = new Map<number, number>()
  arcade.relay.onApplied((head, _events, startedAt) => applied.set(head.number, performance.timeOrigin + startedAt))

  const player = playCoinFlips(dev)
  const rooms = arcade.settings.rooms
  const results = []

  results.push({ name: 'arcade (Elysia, rooms, caps)', ...(await phase(service.url.replace(/^http/, 'ws'), rooms, applied)) })
  const stats = (await (await fetch(`${service.url}/api/stats`)).json()) as { ejections: Record<string, number> }

  // The ceiling: the same frames, published by a bare Bun.serve to sockets subscribed by room.
  const raw = Bun.serve<{ room: string }, never>({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request, server) => (server.upgrade(request, { data: { room: new URL(request.url).pathname.split('/').pop()! } }) ? undefined : new Response('', { status: 400 })),
    websocket: { open: (ws) => void ws.subscribe(ws.data.room), message: () => {}, perMessageDeflate: false },
  })
  // Each event to the very rooms the arcade sent it to (an event of the bank, bound to every
  // room, goes only to the rooms of the game it names).
  const stopMirror = arcade.relay.onApplied((head, relayed) => {
    const headFrame = frames.head(head)
    for (const room of rooms) raw.publish(room, headFrame)
    for (const { room, event } of relayed) raw.publish(room, frames.event(event))
  })
  results.push({ name: 'raw Bun.serve publish', ...(await phase(`ws://127.0.0.1:${raw.port}`, rooms, applied)) })
  stopMirror()

  player.stop()
  await player.done
  report(results, stats.ejections)
  raw.stop(true)
  await service.stop()
  await dev.stop()
}

/** Runs the clients against one server for the warm-up and the measured window, and reads the delays. */
async function phase(base: string, rooms: string[], applied: Map<number, number>) {
  // The clients listen a second past the window, so the last mini-blocks' frames all arrive.
  const child = own(
    Bun.spawn([process.execPath, import.meta.path, 'clients', base, String(rooms.length), String(WARMUP_S + MEASURE_S + 1)], {
      env: { ...process.env, BENCH_ROOMS: JSON.stringify(rooms) },
      stdout: 'pipe',
      stderr: 'inherit',
    }),
  )
  const lines = linesOf(child.stdout)
  if ((await lines.next()).value !== 'open') throw new Error('the bench clients did not open their sockets')
  const from = now() + WARMUP_S * 1000
  const to = from + MEASURE_S * 1000
  const received = JSON.parse((await lines.next()).value as string) as Received
  await child.exited

  const delays: number[] = []
  const blocks = new Set<number>()
  for (const [number, at] of received.frames) {
    const appliedAt = applied.get(number)
    if (appliedAt === undefined || appliedAt < from || appliedAt > to) continue
    blocks.add(number)
    delays.push(at - appliedAt)
  }
  const { count, p50, p99, max } = summarize(delays)
  return { sockets: received.opened, miniBlocks: blocks.size, frames: count, framesPerSecond: count / MEASURE_S, p50, p99, max }
}


/** A player who keeps flipping: place a bet, settle the previous one, so the coinflip room has events. */
function playCoinFlips(chain: DevChain) {
  let running = true
  const { alice } = devAccounts
  const { ArcadeBank, CoinFlip } = chain.manifest.contracts
  const done = (async () => {
    await chain.write(alice, ArcadeBank, ours.ArcadeBank.abi, 'deposit', [], { value: parseEther('100') })
    let previous: bigint | null = null
    while (running) {
      const receipt = await chain.write(alice, CoinFlip, ours.CoinFlip.abi, 'place', [Math.random() < 0.5, parseEther('0.01')])
      const [placed] = decodeEvents<{ betId: bigint }>(ours.CoinFlip.abi, receipt.logs, 'FlipPlaced')
      if (previous !== null) await chain.write(alice, CoinFlip, ours.CoinFlip.abi, 'settle', [previous])
      previous = placed!.args.betId
    }
  })()
  return { done, stop: () => (running = false) }
}

type Row = { name: string; sockets: number; miniBlocks: number; frames: number; framesPerSecond: number; p50: number; p99: number; max: number }

function report(rows: Row[], ejections: Record<string, number>) {
  const [arcade, raw] = rows as [Row, Row]
  printTable(
    `arcade bench: ${SOCKETS} sockets over 8 rooms, a mini-block every ${BLOCK_TIME_S * 1000} ms, a coin flip player, ${MEASURE_S} s measured per server`,
    ['server', 'sockets', 'mini-blocks', 'frames', 'frames/s', 'p50 ms', 'p99 ms', 'max ms'],
    [
      ...rows.map((row) => [row.name, row.sockets, row.miniBlocks, row.frames, fmt.count(row.framesPerSecond), fmt.ms(row.p50), fmt.ms(row.p99), fmt.ms(row.max)]),
      ['arcade / raw', '', '', '', fmt.ratio(arcade.framesPerSecond, raw.framesPerSecond), fmt.ratio(arcade.p50, raw.p50), fmt.ratio(arcade.p99, raw.p99), ''],
    ],
    [
      'delay: from the relay starting to apply a mini-block to a client receiving one of its frames (head or event)',
      `arcade ejections during the run: ${JSON.stringify(ejections)}`,
    ],
  )
}
