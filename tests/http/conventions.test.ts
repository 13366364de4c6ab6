import { afterAll, describe, expect, test } from 'bun:test'
import { Elysia, t } from 'elysia'
import { captureLog, serveOnFreePort } from '../helpers/service.ts'
import { conventions, minuteRateLimit, type ConventionsOptions } from '../../src/http/conventions.ts'
import { ConflictError, InvalidInputError, LimitError, NodeUnreachableError, NotFoundError, UnavailableError } from '../../src/errors.ts'
import { HttpError } from '../../src/http/errors.ts'
import { rawRequest } from '../helpers/rawHttp.ts'
import { waitFor } from '../helpers/wait.ts'
import { requestPath } from '../../src/http/requestContext.ts'
import { listen, StartError } from '../../src/http/serve.ts'

const ALLOWED = 'https://app.example'
const { log, lines } = captureLog()

function testApp(options: Partial<ConventionsOptions> = {}) {
  const shared = conventions({
    service: 'test',
    log,
    host: '127.0.0.1',
    cors: { origins: [ALLOWED], methods: ['GET', 'OPTIONS'], headers: 'Content-Type' },
    trustedProxyHops: 0,
    ...options,
  })
  return new Elysia()
    .use(shared.plugin)
    .get('/ok', () => ({ ok: true }))
    .get('/client', ({ request }) => ({ client: shared.client(request) }))
    .get('/boom', () => {
      throw new Error('database password is hunter2')
    })
    .get('/teapot', () => {
      throw new HttpError(418, 'short and stout', { retryIn: 5 })
    })
    .get('/kind/:kind', ({ params }) => {
      const Kind = { input: InvalidInputError, missing: NotFoundError, conflict: ConflictError, limit: LimitError, unavailable: UnavailableError }[params.kind]
      if (Kind) throw new Kind(`a ${params.kind} error`, { details: { quota: 'client' } })
      throw new NodeUnreachableError('the node at http://10.0.0.7:8545 cannot be reached: ECONNREFUSED')
    })
    .get('/typed/:n', ({ params }) => params, { params: t.Object({ n: t.Numeric() }) })
    .post('/echo', ({ body }) => body)
    .get('/slow', async () => {
      slowStarted++
      // The work takes this long: a request still in flight while the service stops.
      await Bun.sleep(300)
      return { slow: true }
    })
    // A stream that says its length, as an answer passed on from another server does.
    .get('/declared', () => new Response(new Blob(['declared']).stream(), { headers: { 'content-length': '8' } }))
    .get('/endless', () => {
      endless.opened++
      const body = new ReadableStream({
        pull: (controller) => controller.enqueue(new TextEncoder().encode('data: x\n\n')),
        cancel: () => void endless.cancelled++,
      })
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
    })
}

/** How many /endless streams were opened, and how many of them the server cancelled. */
const endless = { opened: 0, cancelled: 0 }
/** How many /slow requests have reached their handler. */
let slowStarted = 0

const plain = serveOnFreePort(testApp())
const proxied = serveOnFreePort(testApp({ trustedProxyHops: 1 }))
const limited = serveOnFreePort(testApp({ cors: null, maxBodyBytes: 16 }))
const readOnly = serveOnFreePort(testApp({ readOnly: true }))
const rateLimited = serveOnFreePort(testApp({ rateLimitPerMinute: 3, trustedProxyHops: 1 }))
const getOnly = serveOnFreePort(testApp({ cors: null, getOnly: true }))
const routesOnly = serveOnFreePort(testApp({ originRefusedOnRoutesOnly: true }))
// Refusals under /api/ carry an API's own keys beside `error` (the Etherscan listener's Sourcify routes).
const withFields = serveOnFreePort(
  testApp({ rateLimitPerMinute: 3, maxBodyBytes: 16, errorFields: (path, status, message) => (path.startsWith('/api/') ? { code: `refused ${status}`, said: message } : null) }),
)
// A path no route takes answers a page when the service gives one (the explorer's 404 page for a browser).
const withPage = serveOnFreePort(
  testApp({ readOnly: true, notFoundPage: (request, path) => (request.headers.get('accept') === 'text/html' && !path.startsWith('/api/') ? new Response(`<p>no ${path}</p>`, { status: 404, headers: { 'content-type': 'text/html' } }) : null) }),
)
afterAll(() => Promise.all([plain, proxied, limited, readOnly, rateLimited, getOnly, routesOnly, withFields, withPage].map((service) => service.stop())))

function expectConventions(response: Response) {
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
}

async function expectJsonError(response: Response, status: number) {
  expect(response.status).toBe(status)
  expectConventions(response)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  const body = (await response.json()) as { error: unknown } & Record<string, unknown>
  expect(typeof body.error).toBe('string')
  return body
}

describe('headers and error bodies', () => {
  test('a normal answer carries no-store and nosniff', async () => {
    const response = await fetch(`${plain.url}/ok`)
    expect(response.status).toBe(200)
    expectConventions(response)
    expect(await response.json()).toEqual({ ok: true })
  })

  test('an unknown route is a JSON 404', async () => {
    expect(await expectJsonError(await fetch(`${plain.url}/nope`), 404)).toEqual({ error: 'not found' })
  })

  test("an unknown route is the service's page where it gives one, with the conventions' headers; else the JSON 404", async () => {
    const page = await fetch(`${withPage.url}/nope?x=1`, { headers: { accept: 'text/html' } })
    expect([page.status, page.headers.get('content-type'), await page.text()]).toEqual([404, 'text/html', '<p>no /nope</p>'])
    expectConventions(page)
    expect(await expectJsonError(await fetch(`${withPage.url}/nope`), 404)).toEqual({ error: 'not found' })
    expect(await expectJsonError(await fetch(`${withPage.url}/api/nope`, { headers: { accept: 'text/html' } }), 404)).toEqual({ error: 'not found' })
    // A route's own 404 and a refused method stay JSON.
    await expectJsonError(await fetch(`${withPage.url}/kind/missing`, { headers: { accept: 'text/html' } }), 404)
    await expectJsonError(await fetch(`${withPage.url}/nope`, { method: 'POST', headers: { accept: 'text/html' } }), 405)
  })

  test('a thrown error is a JSON 500 without its message or stack; the log keeps them', async () => {
    const response = await fetch(`${plain.url}/boom`)
    const text = await response.clone().text()
    expect(await expectJsonError(response, 500)).toEqual({ error: 'internal error' })
    expect(text).not.toContain('hunter2')
    expect(text).not.toContain('at ')
    const logged = lines.find((line) => line.msg === 'unhandled error')
    expect(JSON.stringify(logged)).toContain('hunter2')
    // The request that failed has its line like any other.
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', path: '/boom', status: 500 }))
  })

  test('an HttpError keeps its status, message and extra keys', async () => {
    expect(await expectJsonError(await fetch(`${plain.url}/teapot`), 418)).toEqual({ error: 'short and stout', retryIn: 5 })
  })

  test('domain errors get the status of their kind, with their details; an unreachable node is a fixed 502', async () => {
    const statuses = { input: 400, missing: 404, conflict: 409, limit: 429, unavailable: 503 }
    for (const [kind, status] of Object.entries(statuses)) {
      expect(await expectJsonError(await fetch(`${plain.url}/kind/${kind}`), status)).toEqual({ error: `a ${kind} error`, quota: 'client' })
    }
    const node = await expectJsonError(await fetch(`${plain.url}/kind/node`), 502)
    // The node's address and its error stay in the server.
    expect(node).toEqual({ error: 'upstream node unavailable' })
  })

  test('input that fails its schema, and JSON that does not parse, are JSON 400s', async () => {
    await expectJsonError(await fetch(`${plain.url}/typed/abc`), 400)
    const broken = await fetch(`${limited.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' })
    expect(await expectJsonError(broken, 400)).toEqual({ error: 'invalid json' })
  })

  test('a declared body over the limit is a JSON 413 before the handler', async () => {
    const response = await fetch(`${limited.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'x'.repeat(64) }) })
    await expectJsonError(response, 413)
    const small = await fetch(`${limited.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
    expect(await small.json()).toEqual({ a: 1 })
  })

  test('one log line per request with method, path, status and duration', async () => {
    await fetch(`${plain.url}/teapot?x=1`)
    await fetch(`${plain.url}/ok`, { headers: { origin: 'https://evil.example' } })
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests).toContainEqual(expect.objectContaining({ service: 'test', method: 'GET', path: '/teapot', status: 418 }))
    expect(requests).toContainEqual(expect.objectContaining({ method: 'GET', path: '/ok', status: 403 }))
    for (const line of requests) expect(typeof line.ms).toBe('number')
  })
})

describe('CORS allowlist', () => {
  test('no Origin: served, with no CORS headers', async () => {
    const response = await fetch(`${plain.url}/ok`)
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('an allowed Origin is echoed', async () => {
    const response = await fetch(`${plain.url}/ok`, { headers: { origin: ALLOWED } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED)
    expect(response.headers.get('vary')).toContain('Origin')
  })

  test("the service's own origin is always allowed", async () => {
    const own = `http://localhost:${plain.port}`
    const response = await fetch(`${plain.url}/ok`, { headers: { origin: own } })
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe(own)
  })

  test('an Origin not on the list is a JSON 403, without CORS headers', async () => {
    const response = await fetch(`${plain.url}/ok`, { headers: { origin: 'https://evil.example' } })
    expect(await expectJsonError(response, 403)).toEqual({ error: 'origin not allowed' })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    // Errors of other kinds keep the CORS headers when the Origin is allowed.
    const missing = await fetch(`${plain.url}/nope`, { headers: { origin: ALLOWED } })
    await expectJsonError(missing, 404)
    expect(missing.headers.get('access-control-allow-origin')).toBe(ALLOWED)
  })

  test('a preflight from an allowed Origin is 204 with the methods and header', async () => {
    const response = await fetch(`${plain.url}/anything`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'GET' } })
    expect(response.status).toBe(204)
    expectConventions(response)
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED)
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type')
    expect(await response.text()).toBe('')
  })

  test('a preflight from another Origin is a JSON 403', async () => {
    const response = await fetch(`${plain.url}/ok`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })
    await expectJsonError(response, 403)
  })

  test('OPTIONS without an Origin is 204 with the methods and header, and no allowed origin', async () => {
    const response = await fetch(`${plain.url}/ok`, { method: 'OPTIONS' })
    expect(response.status).toBe(204)
    expectConventions(response)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type')
  })

  test('with CORS off, Origin is ignored and OPTIONS is not handled', async () => {
    const response = await fetch(`${limited.url}/ok`, { headers: { origin: 'https://evil.example' } })
    expect(response.status).toBe(200)
    expect([...response.headers.keys()].filter((name) => name.startsWith('access-control'))).toEqual([])
    await expectJsonError(await fetch(`${limited.url}/ok`, { method: 'OPTIONS', headers: { origin: ALLOWED } }), 404)
  })
})

describe('read-only services', () => {
  test('every write method is a JSON 405, with the CORS headers for an allowed Origin', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await fetch(`${readOnly.url}/anything`, { method, headers: { origin: ALLOWED } })
      expect(await expectJsonError(response, 405)).toEqual({ error: 'method not allowed' })
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED)
    }
  })

  test('the 405 carries the CORS headers its preflight gives, with an allowed Origin and without one', async () => {
    const cors = (response: Response) => Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-') || name === 'vary'))
    for (const origin of [{ origin: ALLOWED }, {}] as Array<Record<string, string>>) {
      const preflight = await fetch(`${readOnly.url}/ok`, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST' } })
      expect(preflight.status).toBe(204)
      const refused = await fetch(`${readOnly.url}/ok`, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' })
      expect(await expectJsonError(refused, 405)).toEqual({ error: 'method not allowed' })
      expect(cors(refused)).toEqual(cors(preflight))
      expect(cors(refused)['access-control-allow-methods']).toBe('GET, OPTIONS')
      expect(cors(refused)['access-control-max-age']).toBe('origin' in origin ? '600' : undefined)
    }
    const foreign = await fetch(`${readOnly.url}/ok`, { method: 'POST', headers: { origin: 'https://evil.example' } })
    expect(await expectJsonError(foreign, 403)).toEqual({ error: 'origin not allowed' })
  })
})

describe('HEAD', () => {
  /** One request on the wire: the answer's head, and the bytes after it until the server closed. */
  async function onTheWire(port: number, method: string, path: string) {
    const answer = await rawRequest(port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
    if (answer.kind !== 'app') throw new Error(`${method} ${path}: no answer of the app (${answer.kind})`)
    return { status: answer.response.status, headers: answer.response.headers, body: answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4) }
  }

  test("is answered as GET without the body: the GET's status and content-length, a route or not", async () => {
    for (const path of ['/ok', '/nope', '/typed/x', '/declared']) {
      const [get, head] = [await onTheWire(plain.port, 'GET', path), await onTheWire(plain.port, 'HEAD', path)]
      expect(head.status, path).toBe(get.status)
      expect(head.headers.get('content-length'), path).toBe(get.headers.get('content-length'))
      expect(Number(head.headers.get('content-length')), path).toBeGreaterThan(0)
      expect(head.headers.get('cache-control'), path).toBe('no-store')
      expect(head.body, path).toBe('')
    }
  })

  test('an endless stream: no length, as its GET has none, and the stream is cancelled unread', async () => {
    const before = { ...endless }
    const head = await onTheWire(plain.port, 'HEAD', '/endless')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('text/event-stream')
    expect(head.headers.get('content-length')).toBeNull()
    expect(head.headers.get('transfer-encoding')).toBe('chunked')
    expect(head.body).toBe('')
    await waitFor(() => endless.cancelled > before.cancelled, 'the stream to be cancelled', 2000)
    expect(endless.opened - before.opened).toBe(1)
    expect(endless.cancelled - before.cancelled).toBe(1)
  })

  test('where GET is the only method, HEAD is the JSON 404 as every other method', async () => {
    expect((await fetch(`${getOnly.url}/ok`)).status).toBe(200)
    const missing = await onTheWire(getOnly.port, 'GET', '/nope')
    const head = await onTheWire(getOnly.port, 'HEAD', '/ok')
    expect(head.status).toBe(404)
    expect(head.headers.get('content-length')).toBe(missing.headers.get('content-length'))
    expect(head.body).toBe('')
    for (const method of ['POST', 'OPTIONS', 'PROPFIND']) {
      expect(await expectJsonError(await fetch(`${getOnly.url}/ok`, { method }), 404), method).toEqual({ error: 'not found' })
    }
  })
})

describe('a refused Origin off the routes', () => {
  const evil = { origin: 'https://evil.example' }

  test('with originRefusedOnRoutesOnly, what is no route is the JSON 404 it is without an Origin', async () => {
    for (const [method, path] of [['GET', '/.git/config'], ['GET', '/nope'], ['GET', '/ok/more'], ['GET', '/echo'], ['HEAD', '/echo'], ['POST', '/ok'], ['DELETE', '/ok']]) {
      const response = await fetch(`${routesOnly.url}${path}`, { method, headers: evil })
      expect(response.status, `${method} ${path}`).toBe(404)
      if (method !== 'HEAD') expect(await expectJsonError(response, 404), `${method} ${path}`).toEqual({ error: 'not found' })
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    }
  })

  test('with originRefusedOnRoutesOnly, a route of its method (HEAD as GET) and a preflight on any path stay 403', async () => {
    for (const [method, path] of [['GET', '/ok'], ['GET', '/ok/'], ['HEAD', '/ok'], ['GET', '/typed/7'], ['POST', '/echo'], ['OPTIONS', '/.git/config']]) {
      const response = await fetch(`${routesOnly.url}${path}`, { method, headers: evil })
      expect(response.status, `${method} ${path}`).toBe(403)
      if (method !== 'HEAD') expect(await expectJsonError(response, 403), `${method} ${path}`).toEqual({ error: 'origin not allowed' })
    }
  })

  test('without it, a refused Origin is 403 on every path', async () => {
    expect(await expectJsonError(await fetch(`${plain.url}/.git/config`, { headers: evil }), 403)).toEqual({ error: 'origin not allowed' })
  })
})

describe('rate limit per client and wall-clock minute', () => {
  test('the window resets on the minute, not a minute after the first request', () => {
    let now = 59_000
    const admit = minuteRateLimit(2, () => now)
    expect([admit('a'), admit('a'), admit('a'), admit('b')]).toEqual([true, true, false, true])
    now = 60_000 // one second later, but a new minute
    expect([admit('a'), admit('a'), admit('a')]).toEqual([true, true, false])
    now = 119_999
    expect(admit('a')).toBe(false)
  })

  test('over the limit is a JSON 429 with the CORS headers and no retry-after; other clients go on', async () => {
    // Start well inside a minute, so that the window cannot reset halfway through the test (the
    // served limit counts by the wall clock; its counting against a given clock is tested above).
    const untilNextMinute = 60_000 - (Date.now() % 60_000)
    if (untilNextMinute < 2000) await Bun.sleep(untilNextMinute + 10)
    const client = '198.51.100.7'
    for (let index = 0; index < 3; index++) {
      const response = await fetch(`${rateLimited.url}/ok`, { headers: { 'x-forwarded-for': `6.6.6.6, ${client}` } })
      expect(response.status).toBe(200)
    }
    const refused = await fetch(`${rateLimited.url}/ok`, { headers: { 'x-forwarded-for': client, origin: ALLOWED } })
    expect(await expectJsonError(refused, 429)).toEqual({ error: 'rate limit exceeded: 3 requests a minute' })
    expect(refused.headers.get('retry-after')).toBeNull()
    expect(refused.headers.get('access-control-allow-origin')).toBe(ALLOWED)
    // The left-hand entries are the client's own words: changing them does not change the bucket.
    expect((await fetch(`${rateLimited.url}/ok`, { headers: { 'x-forwarded-for': `1.2.3.4, ${client}` } })).status).toBe(429)
    expect((await fetch(`${rateLimited.url}/ok`, { headers: { 'x-forwarded-for': `${client}, 198.51.100.250` } })).status).toBe(200)
  })

  test('without the option nothing is counted', async () => {
    for (let index = 0; index < 20; index++) expect((await fetch(`${plain.url}/ok`)).status).toBe(200)
  })
})

describe('client address', () => {
  test('with 0 hops the socket peer is the client; X-Forwarded-For is ignored', async () => {
    const response = await fetch(`${plain.url}/client`, { headers: { 'x-forwarded-for': '203.0.113.9' } })
    expect(await response.json()).toEqual({ client: '127.0.0.1' })
  })

  test('a request routed anew (HTTP/1.0 without a Host, HEAD) still has the socket peer as its client', async () => {
    const bare = await rawRequest(plain.port, 'GET /client HTTP/1.0\r\n\r\n')
    if (bare.kind !== 'app') throw new Error(`expected an answer of the app, got ${bare.kind}`)
    expect(await bare.response.json()).toEqual({ client: '127.0.0.1' })
    const head = await fetch(`${plain.url}/client`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  test('with 1 hop the right-hand end of X-Forwarded-For is the client', async () => {
    const response = await fetch(`${proxied.url}/client`, { headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' } })
    expect(await response.json()).toEqual({ client: '203.0.113.9' })
  })
})

describe('listening and stopping', () => {
  test('a port in use is a one-line error naming the service and the port', () => {
    expect(() => listen(testApp(), 'explorer', '127.0.0.1', plain.port)).toThrow(
      new StartError(`explorer: port ${plain.port} on 127.0.0.1 is already in use`),
    )
  })

  test('stopping finishes the requests in flight and then refuses new ones', async () => {
    const service = serveOnFreePort(testApp())
    const started = slowStarted
    const inFlight = fetch(`${service.url}/slow`)
    await waitFor(() => slowStarted > started, 'the request in its handler', 2000)
    await service.stop()
    const response = await inFlight
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ slow: true })
    await expect(fetch(`${service.url}/ok`)).rejects.toThrow()
  })
})

describe('requests without a usable URL', () => {
  test('the path is read from whatever Bun hands over, never by new URL', () => {
    expect(requestPath('http://127.0.0.1:4010/api/stats?x=1')).toBe('/api/stats')
    expect(requestPath('/api/stats')).toBe('/api/stats')
    expect(requestPath('/api/block/1?limit=2#top')).toBe('/api/block/1')
    expect(requestPath('http://[::1/a')).toBe('/a')
    expect(requestPath('http://x')).toBe('/')
    expect(requestPath('http://x?q=/y')).toBe('/')
    expect(requestPath('evil.example:443')).toBe('evil.example:443')
    expect(requestPath('')).toBe('')
    expect(requestPath(`/${'a'.repeat(5000)}`)).toHaveLength(2049)
  })

  test('HTTP/1.0 without a Host, and a Host that is not one, are answered and logged', async () => {
    const port = plain.port
    const bare = await rawRequest(port, 'GET /ok HTTP/1.0\r\n\r\n')
    expect(bare.kind === 'app' && bare.response.status).toBe(200)
    const broken = await rawRequest(port, 'GET /nope?x=1 HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n')
    expect(broken.kind === 'app' && broken.response.status).toBe(404)
    const logged = (path: string) => lines.some((line) => line.msg === 'request' && line.path === path)
    await waitFor(() => logged('/ok') && logged('/nope'), 'both request lines', 2000)
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests).toContainEqual(expect.objectContaining({ method: 'GET', path: '/ok', status: 200 }))
    expect(requests).toContainEqual(expect.objectContaining({ method: 'GET', path: '/nope', status: 404 }))
  })

  test('answers made before routing keep the conventions without a Host', async () => {
    const refused = await rawRequest(plain.port, 'GET /ok HTTP/1.0\r\nOrigin: https://evil.example\r\n\r\n')
    if (refused.kind !== 'app') throw new Error(`expected an answer of the app, got ${refused.kind}`)
    expect(await expectJsonError(refused.response, 403)).toEqual({ error: 'origin not allowed' })
    const tooLarge = await rawRequest(limited.port, 'POST /echo HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\n\r\n')
    if (tooLarge.kind !== 'app') throw new Error(`expected an answer of the app, got ${tooLarge.kind}`)
    await expectJsonError(tooLarge.response, 413)
    const notAllowed = await rawRequest(readOnly.port, 'DELETE /ok HTTP/1.0\r\n\r\n')
    if (notAllowed.kind !== 'app') throw new Error(`expected an answer of the app, got ${notAllowed.kind}`)
    await expectJsonError(notAllowed.response, 405)
  })
})

// Bun's HTTP parser refuses these before any of the conventions run, and no option of Bun.serve
// reaches them (docs/http.md "What Bun answers itself"). The exact bytes are pinned so that a Bun that
// answers otherwise fails here, and the conventions can then be given to what it lets through.
describe('requests Bun refuses before the conventions run', () => {
  const BARE_400 = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'
  const refused: Array<[string, string]> = [
    ['two different Content-Lengths', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}'],
    ['a Content-Length that is not a number', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2x\r\n\r\n{}'],
    ['a negative Content-Length', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -2\r\n\r\n{}'],
    ['HTTP/1.1 without a Host', 'GET /ok HTTP/1.1\r\nConnection: close\r\n\r\n'],
  ]
  for (const [name, bytes] of refused) {
    test(`${name}: a bare 400, Connection: close and no body`, async () => {
      const answer = await rawRequest(plain.port, bytes)
      expect(answer.kind).toBe('bun')
      expect(answer.kind === 'bun' && answer.text).toBe(BARE_400)
    })
  }

  test('an unknown method token: the connection is closed without a byte', async () => {
    for (const method of ['FROB', 'get']) {
      expect((await rawRequest(plain.port, `${method} /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)).kind, method).toBe('closed')
    }
  })

  test('a method Bun knows and no route takes reaches the conventions: the JSON 404 of the fall-through', async () => {
    const answer = await rawRequest(plain.port, 'PROPFIND /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    if (answer.kind !== 'app') throw new Error(`expected an answer of the app, got ${answer.kind}`)
    expect(await expectJsonError(answer.response, 404)).toEqual({ error: 'not found' })
  })
})

describe('errorFields', () => {
  test("a refusal before routing carries the path's own keys beside error, and no others elsewhere", async () => {
    const tooLarge = await expectJsonError(await fetch(`${withFields.url}/api/x`, { method: 'POST', body: 'x'.repeat(17) }), 413)
    expect(tooLarge).toEqual({ error: 'payload too large (limit 16 bytes)', code: 'refused 413', said: 'payload too large (limit 16 bytes)' })
    const elsewhere = await expectJsonError(await fetch(`${withFields.url}/echo`, { method: 'POST', body: 'x'.repeat(17) }), 413)
    expect(elsewhere).toEqual({ error: 'payload too large (limit 16 bytes)' })
    // The third request of the minute is the last admitted (a new minute may start on the way).
    let refused = await fetch(`${withFields.url}/api/x`)
    for (let i = 0; i < 4 && refused.status !== 429; i++) refused = await fetch(`${withFields.url}/api/x`)
    const limitedAnswer = await expectJsonError(refused, 429)
    expect(limitedAnswer.code).toBe('refused 429')
  })
})
