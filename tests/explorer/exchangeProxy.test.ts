import { afterAll, beforeEach, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { captureLog, serveOnFreePort } from '../helpers/service.ts'
import { rawRequest } from '../helpers/rawHttp.ts'
import type { Peers } from '../../src/context.ts'
import { conventions } from '../../src/http/conventions.ts'
import { exchangeProxy, exchangeTarget } from '../../src/explorer/routes/exchangeProxy.ts'
import { sleep } from '../../src/time/sleep.ts'

// The slow index holds far past the proxy's time limit and any stall of a loaded machine, and
// lets go when the proxy does: only a time limit that did not hold can fail the test.
const HOLD_MS = 20_000
const GIVES_UP_WITHIN_MS = 10_000

// A real server stands in for the exchange index: it answers every path with what it was asked,
// so a test sees exactly what the proxy forwarded, and keeps the list of what reached it.
const asked: string[] = []
const exchange = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  async fetch(request) {
    const url = new URL(request.url)
    asked.push(`${url.pathname}${url.search}`)
    const json = (body: unknown, status = 200) => Response.json(body, { status })
    if (url.pathname === '/pool/0x0000000000000000000000000000000000000404') return json({ error: 'unknown pool' }, 404)
    if (url.pathname === '/cl/ticks' && !url.searchParams.has('pool')) return json({ error: 'invalid address or number' }, 400)
    if (url.pathname === '/cl/tiers') {
      // An index slower than the proxy's time limit.
      await sleep(HOLD_MS, request.signal)
      return json({ tiers: [] })
    }
    if (url.pathname === '/tokens') return new Response('<html>not json</html>', { headers: { 'content-type': 'text/html' } })
    return json({ path: url.pathname, query: Object.fromEntries(url.searchParams), method: request.method, accept: request.headers.get('accept'), cookie: request.headers.get('cookie') })
  },
})

// A port that was open a moment ago and is closed now: the exchange gone.
const gone = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') })
const gonePort = gone.port
gone.stop(true)

const peersAt = (exchangeUrl: string | null): Peers => ({ url: (name) => (name === 'exchange' ? exchangeUrl : null) })

function explorerWith(peers: Peers | undefined) {
  const { log } = captureLog()
  const shared = conventions({ service: 'explorer', log, host: '127.0.0.1', cors: null, trustedProxyHops: 0, readOnly: true })
  return serveOnFreePort(new Elysia().use(shared.plugin).use(exchangeProxy(peers, { timeoutMs: 300 })))
}

const up = explorerWith(peersAt(`http://127.0.0.1:${exchange.port}`))
const down = explorerWith(peersAt(`http://127.0.0.1:${gonePort}`))
const unknown = explorerWith(peersAt(null))
const alone = explorerWith(undefined)

afterAll(async () => {
  await Promise.all([up, down, unknown, alone].map((service) => service.stop()))
  exchange.stop(true)
})

beforeEach(() => {
  asked.length = 0
})

async function expectError(response: Response, status: number) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  expect(response.headers.get('cache-control')).toBe('no-store')
  const body = (await response.json()) as { error: unknown }
  expect(typeof body.error).toBe('string')
  return body as { error: string }
}

describe('forwarding', () => {
  test('each path the exchange serves is asked of it as it came, with its query', async () => {
    const pool = '0x16F9301e11A53519Ce2eBBB666100b4D40C6343E'
    const paths = [
      '/health',
      '/pools',
      `/pool/${pool}`,
      `/pool/${pool.slice(2).toLowerCase()}`,
      '/stats',
      `/swaps?pair=${pool}&limit=5`,
      `/events?pair=${pool}`,
      '/cl/pools',
      `/cl/pool/${pool}`,
      `/cl/positions?pool=${pool}&closed=1`,
      `/cl/ticks?pool=${pool}`,
      `/cl/swaps?pool=${pool}&sender=${pool}`,
      `/cl/events?pool=${pool}&kind=mint&limit=20`,
    ]
    for (const path of paths) {
      const response = await fetch(`${up.url}/dex${path}`, { headers: { cookie: 'session=secret' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toStartWith('application/json')
      expect(response.headers.get('cache-control')).toBe('no-store')
      const body = (await response.json()) as { path: string; query: Record<string, string>; method: string; accept: string; cookie: string | null }
      const url = new URL(path, 'http://x')
      expect(body.path).toBe(url.pathname)
      expect(body.query).toEqual(Object.fromEntries(url.searchParams))
      expect(body.method).toBe('GET')
      expect(body.accept).toBe('application/json')
      // Nothing of the browser's goes on to the exchange but the path and the query.
      expect(body.cookie).toBeNull()
    }
    expect(asked).toEqual(paths)
  })

  test("the exchange's errors come back with their status and body", async () => {
    const missing = await expectError(await fetch(`${up.url}/dex/pool/0x0000000000000000000000000000000000000404`), 404)
    expect(missing.error).toBe('unknown pool')
    const invalid = await expectError(await fetch(`${up.url}/dex/cl/ticks`), 400)
    expect(invalid.error).toBe('invalid address or number')
  })

  test('an answer that is not JSON is a 502, not passed on', async () => {
    await expectError(await fetch(`${up.url}/dex/tokens`), 502)
  })

  test('only GET (and HEAD, which the conventions answer as GET) reaches it', async () => {
    const post = await fetch(`${up.url}/dex/pools`, { method: 'POST', body: '{}' })
    expect(post.status).toBe(405)
    expect(asked).toEqual([])
    const head = await fetch(`${up.url}/dex/pools`, { method: 'HEAD' })
    expect(head.status).toBe(200)
  })
})

describe('what is refused before it leaves', () => {
  const refused = [
    '/dex/',
    '/dex',
    '/dex/nope',
    '/dex/pools/extra',
    '/dex/api/pools',
    '/dex/cl/pool/',
    '/dex/pool/0x12.34',
    '/dex/pool/%2e%2e',
    '/dex/pool/..',
    '/dex/../api/stats',
    '/dex/%2e%2e/api/stats',
    '/dex/cl/%2E%2E/%2E%2E/api/stats',
    '/dex/pool/0x12%2F..%2F..%2Fstats',
    '/dex//pools',
    '/dex/%2Fpools',
    '/dex/pools%3Fa=1',
    '/dex/http://example.com/pools',
    '/dex//example.com/pools',
    '/dex/@example.com/pools',
  ]

  test.each(refused)('%s is a JSON 404 and never asked', async (path) => {
    const answer = await rawRequest(up.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expect(answer.kind).toBe('app')
    if (answer.kind !== 'app') return
    await expectError(answer.response, 404)
    expect(asked).toEqual([])
  })

  test('dot segments the server resolves before routing land on a path of the exchange or are refused', async () => {
    const landed: Array<[string, string]> = [
      ['/dex/cl/../pools', '/pools'],
      ['/dex/./pools', '/pools'],
      ['/dex/cl/%2e%2e/stats', '/stats'],
      ['/dex/pools\\..\\stats', '/stats'],
    ]
    for (const [path, resolved] of landed) {
      asked.length = 0
      const answer = await rawRequest(up.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
      expect(answer.kind).toBe('app')
      if (answer.kind === 'app') expect(answer.response.status).toBe(200)
      expect(asked).toEqual([resolved])
    }
  })

  test('a query goes on as the server read it, escaped', async () => {
    const answer = await rawRequest(up.port, `GET /dex/pools?a=<b>&c=%20d HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    expect(answer.kind).toBe('app')
    if (answer.kind === 'app') expect(((await answer.response.json()) as { query: unknown }).query).toEqual({ a: '<b>', c: ' d' })
    expect(asked).toEqual(['/pools?a=%3Cb%3E&c=%20d'])
  })

  test('an absolute-form request target names the path, never another host', async () => {
    const answer = await rawRequest(up.port, `GET http://example.com/dex/pools?x=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n`)
    expect(answer.kind).toBe('app')
    if (answer.kind === 'app') expect(answer.response.status).toBe(200)
    expect(asked).toEqual(['/pools?x=1'])
  })

  test('exchangeTarget reads the path as written', () => {
    expect(exchangeTarget('http://h/dex/pools?pair=0xab&limit=1')).toBe('/pools?pair=0xab&limit=1')
    expect(exchangeTarget('/dex/cl/pool/abc')).toBe('/cl/pool/abc')
    expect(exchangeTarget('http://h/dex/pools#fragment')).toBe('/pools')
    expect(exchangeTarget('http://h/dex/../pools')).toBeNull()
    expect(exchangeTarget('http://h/dex/cl/%2e%2e/pools')).toBeNull()
    expect(exchangeTarget('http://h/dex/pools?a="b"')).toBeNull()
    expect(exchangeTarget('http://h/dexpools')).toBeNull()
    expect(exchangeTarget(`http://h/dex/pools?${'a'.repeat(600)}`)).toBeNull()
  })
})

describe('without an exchange', () => {
  test('an exchange that does not listen is a JSON 502', async () => {
    const body = await expectError(await fetch(`${down.url}/dex/pools`), 502)
    expect(body.error).not.toContain(String(gonePort))
  })

  test('an exchange that does not answer in time is a JSON 502', async () => {
    const started = performance.now()
    await expectError(await fetch(`${up.url}/dex/cl/tiers`), 502)
    expect(performance.now() - started).toBeLessThan(GIVES_UP_WITHIN_MS)
  })

  test('an exchange whose origin is not known (not started yet, or the explorer alone) is a JSON 503', async () => {
    await expectError(await fetch(`${unknown.url}/dex/pools`), 503)
    await expectError(await fetch(`${alone.url}/dex/pools`), 503)
  })

  test('a path the exchange does not serve is a 404 even then', async () => {
    await expectError(await fetch(`${unknown.url}/dex/nope`), 404)
  })
})
