import { afterAll, describe, expect, test } from 'bun:test'
import net from 'node:net'
import { networkInterfaces } from 'node:os'
import { createExplorerApp } from '../../src/explorer/app.ts'
import { listen } from '../../src/http/serve.ts'
import { OPERATOR_PATH } from '../../src/ops/runtime.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'

// The explorer's limits and errors at its door (docs/explorer.md, docs/http.md): 300 requests a minute per client (the
// right-hand end of X-Forwarded-For behind trusted proxies), 429 without retry-after; bodies over
// 600,000 bytes; every POST 405 with the CORS headers; preflights 204; foreign origins 403.
// None of it needs the chain: the spool waits for a node that is not there.

const SITE = 'https://site.example'
const context = testContext(`[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[explorer]\ncorsOrigins = ["${SITE}"]\ntrustedProxyHops = 1\n`)
const spool = await startSpool(context.config, spoolWiring(context.config), context.log)
const explorer = serveOnFreePort(createExplorerApp(context, spool), 'explorer')
afterAll(async () => {
  await explorer.stop()
  await spool.stop()
})

const get = (path: string, client: string, init: RequestInit = {}) =>
  fetch(`${explorer.url}/api${path}`, { ...init, headers: { 'x-forwarded-for': client, ...(init.headers as Record<string, string>) } })

/** A request as written on the wire, for what fetch will not send (a GET with a body). */
function raw(text: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(explorer.url)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      const end = answer.indexOf('\r\n\r\n')
      const length = Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? -1)
      if (end >= 0 && length >= 0 && answer.length >= end + 4 + length) {
        socket.destroy()
        resolve({ status: Number(answer.split(' ')[1]), body: answer.slice(end + 4, end + 4 + length) })
      }
    })
    socket.on('error', reject)
  })
}

describe('request rate', () => {
  test('300 a minute per client, then 429 with no retry-after; another client is not affected', async () => {
    // Start well inside a wall-clock minute, so that the window cannot turn during the test (the
    // running stack counts by the wall clock's minute: only waiting moves it).
    const untilNextMinute = 60_000 - (Date.now() % 60_000)
    if (untilNextMinute < 5000) await Bun.sleep(untilNextMinute + 10)
    const client = '198.51.100.20'
    const statuses = await Promise.all(Array.from({ length: 300 }, () => get('/health', client).then((response) => response.status)))
    expect(statuses.every((status) => status === 200)).toBe(true)
    const refused = await get('/stats', `10.0.0.1, ${client}`, { headers: { origin: SITE } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBeNull()
    expect(refused.headers.get('access-control-allow-origin')).toBe(SITE)
    expect(refused.headers.get('cache-control')).toBe('no-store')
    expect(await refused.json()).toEqual({ error: 'rate limit exceeded: 300 requests a minute' })
    // Unknown routes count and are refused alike; the leftmost entries are the client's own words.
    expect((await get('/nope', `1.2.3.4, ${client}`)).status).toBe(429)
    // So do a contract's routes, its reads through the node among them.
    for (const path of ['/address/0xa0Ee7A142d267C1f36714E4a8F75612F20a79720/contract', '/address/0xa0Ee7A142d267C1f36714E4a8F75612F20a79720/call?data=0x06661abd']) expect([path, (await get(path, client)).status]).toEqual([path, 429])
    expect((await get('/health', '198.51.100.21')).status).toBe(200)
    expect((await get('/health', `${client}, 198.51.100.22`)).status).toBe(200)
    // The pages' own files are not the API: a client past its minute still gets them, and the
    // exchange the pages read through the explorer counts like the API.
    const page = (path: string) => fetch(`${explorer.url}${path}`, { headers: { 'x-forwarded-for': client } })
    for (const path of ['/', '/app.js', '/app.css', '/tx/0x01']) expect([path, (await page(path)).status]).toEqual([path, 200])
    expect((await page('/dex/pools')).status).toBe(429)
  })
})

describe("the operator's route", () => {
  const operator = (init: RequestInit = {}, base = explorer.url) => fetch(`${base}${OPERATOR_PATH}`, init)

  test('is not counted by the minute, and answers only a request from this machine that no proxy forwarded', async () => {
    const untilNextMinute = 60_000 - (Date.now() % 60_000)
    if (untilNextMinute < 5000) await Bun.sleep(untilNextMinute + 10)
    // This machine's own minute spent (no forwarding header: the client is the socket's peer).
    await Promise.all(Array.from({ length: 300 }, () => fetch(`${explorer.url}/api/health`)))
    expect((await fetch(`${explorer.url}/api/stats`)).status).toBe(429)
    const answer = await operator()
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    const body = (await answer.json()) as Record<string, any>
    // No node here: a spool with no block yet, its streams before their first.
    expect(body).toMatchObject({ service: 'explorer', status: 'ok', spool: { head: null, hash: null } })
    expect(body.spool.streams.tally).toEqual({ cursorBlock: null, lagBlocks: null, updatedAt: null })
    expect(Object.keys(body.stats)).toContain('derivedLag')
    // A forwarded request is never the operator's, whatever address it names or the proxy hops say.
    const forwarded: Array<Record<string, string>> = [{ 'x-forwarded-for': '127.0.0.1' }, { 'x-forwarded-for': '203.0.113.7, 127.0.0.1' }, { forwarded: 'for=127.0.0.1' }]
    for (const headers of forwarded) {
      const refused = await operator({ headers })
      expect([headers, refused.status]).toEqual([headers, 404])
      expect(await refused.json()).toEqual({ error: 'not found' })
    }
  })

  test("a peer that is not loopback is refused, though the service listens on every address", async () => {
    const outward = Object.values(networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal)?.address
    expect(outward).toBeString()
    const everywhere = testContext(`[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[explorer]\nhost = "0.0.0.0"\n[data]\ndir = "${context.config.dataDir}"\n`)
    const wide = listen(createExplorerApp(everywhere, spool), 'explorer', '0.0.0.0', 0)
    try {
      expect((await operator({}, `http://127.0.0.1:${wide.port}`)).status).toBe(200)
      expect((await operator({}, `http://${outward}:${wide.port}`)).status).toBe(404)
    } finally {
      await wide.stop()
    }
  })
})

describe('methods, bodies and origins', () => {
  test('every POST is a JSON 405 with the CORS headers, whatever the path', async () => {
    for (const path of ['/stats', '/tx/0x00', '/nope', '/live']) {
      const response = await get(path, '203.0.113.1', { method: 'POST', headers: { origin: SITE, 'content-type': 'application/json' }, body: '{}' })
      expect(response.status).toBe(405)
      expect(response.headers.get('access-control-allow-origin')).toBe(SITE)
      expect(await response.json()).toEqual({ error: 'method not allowed' })
    }
  })

  test('the 405 carries the same CORS headers as the preflight of the same request, with an allowed Origin and without one', async () => {
    const cors = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'))
    for (const origin of [{ origin: SITE }, {}] as Array<Record<string, string>>) {
      for (const path of ['/stats', '/nope']) {
        const preflight = await get(path, '203.0.113.4', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST' } })
        const refused = await get(path, '203.0.113.4', { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' })
        expect([preflight.status, refused.status]).toEqual([204, 405])
        expect(cors(refused)).toEqual(cors(preflight))
        expect(cors(refused)).toMatchObject({ 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-allow-headers': 'Content-Type', vary: 'Origin' })
        expect(await refused.json()).toEqual({ error: 'method not allowed' })
      }
    }
  })

  test('a foreign Origin is 403 on any path, a route or not, POST included', async () => {
    for (const [method, path] of [['GET', '/nope'], ['GET', '/stats'], ['POST', '/stats']] as const) {
      const response = await get(path, '203.0.113.5', { method, headers: { origin: 'https://evil.example' } })
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(await response.json()).toEqual({ error: 'origin not allowed' })
    }
    const outsideTheApi = await fetch(`${explorer.url}/.git/config`, { headers: { origin: 'https://evil.example' } })
    expect(outsideTheApi.status).toBe(403)
  })

  test('a declared body over 600,000 bytes is refused 413; a smaller one is not', async () => {
    const host = `Host: ${new URL(explorer.url).host}\r\nX-Forwarded-For: 203.0.113.2\r\nConnection: close\r\n`
    const big = await raw(`GET /api/fees HTTP/1.1\r\n${host}Content-Length: 600001\r\n\r\n`)
    expect(big.status).toBe(413)
    expect(JSON.parse(big.body).error).toContain('600000')
    const small = await raw(`GET /api/fees HTTP/1.1\r\n${host}Content-Length: 2\r\n\r\n{}`)
    expect(small.status).toBe(200)
    expect(JSON.parse(small.body)).toMatchObject({ deployed: true })
  })

  test('OPTIONS is a 204 preflight for GET and OPTIONS with Content-Type; a foreign Origin is 403', async () => {
    const preflight = await get('/tokens', '203.0.113.3', { method: 'OPTIONS', headers: { origin: SITE, 'access-control-request-method': 'GET' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type')
    for (const method of ['GET', 'OPTIONS']) {
      const foreign = await get('/stats', '203.0.113.3', { method, headers: { origin: 'https://evil.example' } })
      expect(foreign.status).toBe(403)
      expect(await foreign.json()).toEqual({ error: 'origin not allowed' })
    }
    const allowed = await get('/fees', '203.0.113.3', { headers: { origin: SITE } })
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SITE)
  })
})
