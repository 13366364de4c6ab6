import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createExplorerApp } from '../../src/explorer/app.ts'
import { MAX_LIVE_STREAMS } from '../../src/explorer/live.ts'
import type { Listening } from '../../src/http/serve.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { spawnAnvil, type Anvil } from '../helpers/anvil.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { send, waitFor } from './helpers.ts'

// `/live`: text/event-stream, one stats frame per change, at most 32 open (the next is
// 503), each closed silently after its lifetime (shortened here through explorer.liveSeconds).

let anvil: Anvil
let spool: Spool
let steady: Listening
let brief: Listening
const SENDER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

beforeAll(async () => {
  anvil = await spawnAnvil()
  const chain = `[chain]\nrpc = "${anvil.rpcUrl}"\nws = "${anvil.wsUrl}"\n[spool]\npollMs = 100\n`
  const context = testContext(chain)
  spool = await startSpool(context.config, spoolWiring(context.config), context.log)
  steady = serveOnFreePort(createExplorerApp(testContext(`${chain}[data]\ndir = "${context.config.dataDir}"\n[explorer]\nliveSeconds = 30\n`), spool), 'explorer')
  brief = serveOnFreePort(createExplorerApp(testContext(`${chain}[data]\ndir = "${context.config.dataDir}"\n[explorer]\nliveSeconds = 1\n`), spool), 'explorer')
  await waitFor(() => spool.health().spoolHeadBlock === 0, 'the spool at genesis')
})
afterAll(async () => {
  await Promise.all([steady, brief].map((service) => service?.stop()))
  await spool?.stop()
  await anvil?.stop()
})

/** An open /live stream: its frames as they come, parsed. */
async function openLive(base: string) {
  const controller = new AbortController()
  const response = await fetch(`${base}/api/live`, { signal: controller.signal })
  const frames: Array<Record<string, unknown>> = []
  let ended = false
  let failed: unknown = null
  const reading = (async () => {
    if (response.status !== 200) return
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          expect(frame.startsWith('data: ')).toBe(true)
          frames.push(JSON.parse(frame.slice(6)))
        }
      }
      ended = true
    } catch (error) {
      if (!controller.signal.aborted) failed = error
    }
  })()
  return { response, frames, ended: () => ended, failed: () => failed, close: () => controller.abort(), reading }
}

describe('/live', () => {
  test('an event stream of the stats object: one frame at once, then one per change, none while nothing changes', async () => {
    const live = await openLive(steady.url)
    expect(live.response.status).toBe(200)
    expect(live.response.headers.get('content-type')).toBe('text/event-stream')
    expect(live.response.headers.get('cache-control')).toBe('no-store')
    await waitFor(() => live.frames.length >= 1, 'the first frame')
    const first = live.frames[0]!
    expect(first).toHaveProperty('indexedBlock')
    expect(first).toHaveProperty('latestBlock')
    // Let the stats settle (the first ticks fill in the node's figures, the streams reach the
    // spool's head within their two-second sleep), then watch an idle chain.
    await waitFor(() => live.frames.at(-1)?.derivedLag === 0 && live.frames.at(-1)?.nodeReachable === true, 'settled stats', 5000)
    // An absence takes time to show: a moment for the last figures to arrive, then a second and a
    // half of an idle chain in which no frame may come.
    await Bun.sleep(1500)
    const settled = live.frames.length
    await Bun.sleep(1500)
    expect(live.frames.length).toBe(settled)
    await send(anvil.rpcUrl, [{ from: SENDER, to: SENDER, value: 1n }])
    await waitFor(() => live.frames.some((frame) => frame.indexedBlock === 1), 'a frame for block 1', 5000)
    const frames = live.frames.map((frame) => JSON.stringify(frame))
    // Every frame differs from the one before it.
    for (let index = 1; index < frames.length; index++) expect(frames[index]).not.toBe(frames[index - 1])
    live.close()
  })

  test('at most 32 open: the 33rd is a JSON 503; closing one frees its place', async () => {
    const open = await Promise.all(Array.from({ length: MAX_LIVE_STREAMS }, () => openLive(steady.url)))
    expect(open.every((live) => live.response.status === 200)).toBe(true)
    const refused = await fetch(`${steady.url}/api/live`)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('content-type')).toStartWith('application/json')
    expect(((await refused.json()) as { error: string }).error).toContain('32')
    open[0]!.close()
    const again = await waitFor(async () => {
      const attempt = await openLive(steady.url)
      if (attempt.response.status === 200) return attempt
      await attempt.response.body?.cancel()
      return null
    }, 'a free place', 3000)
    for (const live of [...open, again]) live.close()
  })

  test('each stream is closed after its lifetime, silently: the body just ends', async () => {
    const started = performance.now()
    const live = await openLive(brief.url)
    await live.reading
    expect(live.ended()).toBe(true)
    expect(live.failed()).toBeNull()
    expect(live.frames.length).toBeGreaterThanOrEqual(1)
    const lasted = performance.now() - started
    expect(lasted).toBeGreaterThan(900)
    expect(lasted).toBeLessThan(3000)
  })
})
