import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { configDir, fromSource, ROOT, startStack, type RunningStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'
import { rawRequest } from '../helpers/rawHttp.ts'

// Hostile input against `stack dev` as a developer runs it: every route of the four services
// with malformed path and query values, every method, and requests written byte by byte on a
// socket. The stack must outlive all of it, answer no 5xx but the documented 502 and 503, and
// give every error it writes itself as JSON with no-store.

let stack: RunningStack
let seeded: { pair: string; pool: string; tx: string; account: string }

beforeAll(async () => {
  const { dir, file } = configDir(
    `[dev]\nport = 0\n[registry]\nsource = "${join(ROOT, 'registry')}"\n[explorer]\nrateLimitPerMinute = 1000000000\n[etherscan]\nrateLimitPerMinute = 1000000000\n`,
  )
  stack = await startStack(fromSource, ['dev', '--config', file], { cwd: dir, timeoutMs: 60_000 })
  const json = async (url: string) => (await fetch(url)).json() as Promise<any>
  await waitFor(async () => (await json(`${stack.urls.explorer}/api/stats`)).indexedBlock > 100, 'the seeded chain in the spool', 30_000)
  await waitFor(async () => (await fetch(`${stack.urls.explorer}/api/tokenlist`)).status === 200, 'the registry copy', 10_000)
  await waitFor(async () => {
    const { streams } = await json(`${stack.urls.exchange}/health`)
    return streams.v2.cursorBlock > 100 && streams.cl.cursorBlock > 100
  }, 'both exchange streams past the seed', 30_000)
  const pools = await json(`${stack.urls.exchange}/pools`)
  const clPools = await json(`${stack.urls.exchange}/cl/pools`)
  const txs = await json(`${stack.urls.explorer}/api/txs`)
  seeded = { pair: pools.pools[0].pair, pool: clPools.pools[0].pool, tx: txs[0].hash, account: txs[0].from }
}, 90_000)

afterAll(async () => {
  await stack?.stop('SIGINT')
})

/** The dev chain's first token, a contract the stack knows from its deployment. */
const BX = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** Values a client may put in a path segment or a query value, chosen to break parsers. */
const HOSTILE = [
  '', ' ', '0', '-1', '+1', '1e3', '1e309', '1.5', '.5', '0b101', '0o7', '1_000', 'NaN', 'Infinity', '-Infinity',
  '9'.repeat(400), '0x', '0X1', '0x-1', `0x${'f'.repeat(400)}`, `0x${'g'.repeat(40)}`, `0x${'a'.repeat(39)}`, `0x${'a'.repeat(41)}`,
  `0x${'A'.repeat(20)}${'a'.repeat(20)}`, 'a'.repeat(40), `0x${'0'.repeat(64)}`, `0x${'F'.repeat(64)}`,
  'null', 'undefined', 'true', '[]', '{}', '__proto__', 'constructor', 'toString', 'hasOwnProperty',
  "' OR 1=1 --", '"; DROP TABLE blocks; --', '<script>alert(1)</script>', '../../etc/passwd', '%', '%zz', '%00', '%C0%AF',
  '\u0000', '\uFFFF', '\uD800', '😀'.repeat(40), 'é', '١٢٣', '１２３', '\t', '\r\n', 'a/b', 'x'.repeat(4000),
]

/** encodeURIComponent, but a lone surrogate goes out as the bytes a careless encoder would send. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')
  }
}

/** Path templates of every route, by service; `*` is where a hostile segment goes. */
function templates() {
  const explorer = [
    '/api/*', '/api/tokenlogo/*', '/api/taglogo/*', '/api/block/*', '/api/mini/*', '/api/tx/*', '/api/address/*',
    '/api/nft/*', `/api/nft/${seeded.account}/*`, '/api/nft/*/1', '/api/name/*', '/*',
    '/api/address/*/contract', '/api/address/*/call', '/api/address/*/call?data=0x06661abd',
    '/api/tx/*/state', '/api/positions?pool=*', `/api/positions?pool=${BX}&owners=*`,
    '/api/address/*/transactions', '/api/address/*/token-transfers', '/api/address/*/nft-transfers', '/api/address/*/internal',
    '/api/token/*/holders', '/api/token/*/transfers', '/api/token/*/pools', '/address/*/transactions.csv', '/address/*/token-transfers.csv',
  ]
  const exchange = ['/pool/*', '/cl/pool/*', '/api/pool/*', '/api/cl/pool/*', '/*', '/cl/*', '/api/*']
  const faucet = ['/*', '/api/*', '/status?address=*', '/faucet-status?address=*', '/api/status?address=*']
  const arcade = ['/api/*', '/ws/*', '/*']
  const etherscan = [
    '/*', '/api/*', '/api?module=*', '/api?module=contract&action=*', '/api?module=contract&action=getabi&address=*',
    '/api?module=contract&action=getsourcecode&address=*', '/api?module=contract&action=checkverifystatus&guid=*',
    '/api?module=contract&action=getcontractcreation&contractaddresses=*', '/api?module=contract&action=checkproxyverification&guid=*',
    '/sourcify/*', '/sourcify/v2/verify/*', '/sourcify/v2/contract/*/0x5FbDB2315678afecb367f032d93F642f64180aa3', '/sourcify/v2/contract/78270/*',
  ]
  return { explorer, exchange, faucet, arcade, etherscan }
}

/** Query keys each service reads, on the routes that read them. */
function queries() {
  return {
    explorer: { '/api/charts': ['limit'], '/api/blocks': ['limit', 'offset', 'active'], '/api/block/1': ['limit', 'offset'], '/api/minis': ['limit', 'offset'], '/api/mini/1': ['limit', 'offset'], '/api/txs': ['limit', 'offset'], '/api/accounts': ['limit', 'offset'], [`/api/address/${seeded.account}`]: ['limit', 'offset'], [`/api/nft/${seeded.account}`]: ['limit', 'offset'], [`/api/address/${BX}/call`]: ['data', 'from'], [`/api/address/${seeded.account}/transactions`]: ['limit', 'offset'], [`/api/address/${seeded.account}/internal`]: ['limit', 'offset'], [`/api/token/${BX}/holders`]: ['limit', 'offset'], [`/address/${seeded.account}/transactions.csv`]: ['startblock', 'endblock', 'from', 'to'], [`/address/${seeded.account}/token-transfers.csv`]: ['from', 'to'], '/api/positions': ['pool', 'owners'] },
    exchange: { '/swaps': ['pair', 'sender', 'limit'], '/events': ['pair', 'limit'], '/cl/positions': ['pool', 'owner', 'closed', 'limit'], '/cl/ticks': ['pool'], '/cl/swaps': ['pool', 'sender', 'limit'], '/api/cl/events': ['pool', 'owner', 'kind', 'limit'] },
    faucet: { '/status': ['address'], '/api/faucet-status': ['address'] },
    arcade: { '/api/rooms': ['room'], '/api/stats': ['limit'] },
    // Etherscan's modules read their fields from the query (or a form): every field of a few actions.
    etherscan: {
      '/api?module=account&action=txlist': ['address', 'startblock', 'endblock', 'page', 'offset', 'sort'],
      '/api?module=account&action=balancemulti': ['address', 'tag'],
      '/api?module=account&action=tokentx': ['address', 'contractaddress', 'page', 'offset'],
      '/api?module=account&action=txlistinternal': ['txhash', 'startblock', 'endblock'],
      '/api?module=logs&action=getLogs': ['fromBlock', 'toBlock', 'address', 'topic0', 'topic0_1_opr', 'page', 'offset'],
      '/api?module=block&action=getblocknobytime': ['timestamp', 'closest'],
      '/api?module=transaction&action=getstatus': ['txhash'],
      '/api?module=proxy&action=eth_getBlockByNumber': ['tag', 'boolean'],
      '/api?module=proxy&action=eth_call': ['to', 'data', 'tag'],
      '/api?module=contract&action=verifysourcecode': ['sourceCode', 'codeformat', 'contractaddress', 'contractname', 'compilerversion'],
    },
  } as Record<string, Record<string, string[]>>
}

/** Queries that are hostile by their shape rather than their values. */
const SHAPES = ['?limit=1&limit=2', '?limit[]=1', '?limit[a]=1', '?__proto__[x]=1', '?constructor[prototype][x]=1', '?=', '?&&&', '?limit', `?q=${'a'.repeat(8000)}`, '?%zz=1', '?limit=%zz', '?a=1#frag']

/** The 5xx the spec documents: an unreachable node (502) and a service not ready or a refused drip (503). */
const DOCUMENTED_5XX = new Set([502, 503])

type Failure = string

/** Every 400 of the exchange index carries this one message. */
const EXCHANGE_400 = 'invalid address or number'

/** What every answer of the app itself must be, whatever was asked; the answer to a HEAD has no body to check. */
async function checkAnswer(what: string, service: string, response: Response, failures: Failure[], head = what.startsWith('HEAD ')) {
  const contentType = response.headers.get('content-type') ?? ''
  const text = contentType.startsWith('text/event-stream') ? (await response.body?.cancel(), '') : await response.text()
  if (response.status >= 500 && !DOCUMENTED_5XX.has(response.status)) failures.push(`${what}: ${response.status} ${text.slice(0, 200)}`)
  if (response.headers.get('cache-control') !== 'no-store') failures.push(`${what}: ${response.status} without cache-control: no-store`)
  if (response.status < 400 || head) return
  if (!contentType.startsWith('application/json')) {
    failures.push(`${what}: ${response.status} with content-type ${contentType || '(none)'}`)
    return
  }
  try {
    const body = JSON.parse(text) as { error?: unknown }
    if (service === 'etherscan' && URL.parse(response.url)?.pathname.startsWith('/sourcify/')) {
      // Sourcify's answers keep Sourcify's shape: its clients read customCode and message.
      const sourcify = body as { customCode?: unknown; message?: unknown; errorId?: unknown }
      if (typeof sourcify.customCode !== 'string' || typeof sourcify.message !== 'string' || typeof sourcify.errorId !== 'string') failures.push(`${what}: ${response.status} not in Sourcify's error shape: ${text.slice(0, 200)}`)
      return
    }
    if (typeof body.error !== 'string') failures.push(`${what}: ${response.status} without an error string: ${text.slice(0, 200)}`)
    if (service === 'exchange' && response.status === 400 && body.error !== EXCHANGE_400) failures.push(`${what}: a 400 of the exchange says ${text.slice(0, 200)}`)
  } catch {
    failures.push(`${what}: ${response.status} body is not JSON: ${text.slice(0, 200)}`)
  }
}

/** Runs the requests a few at a time; each check adds to `failures` rather than stopping. */
async function run(requests: Array<{ service: string; what: string; url: string; init?: RequestInit }>, failures: Failure[], concurrency = 16) {
  let next = 0
  const worker = async () => {
    while (next < requests.length) {
      const { service, what, url, init } = requests[next++]!
      try {
        await checkAnswer(what, service, await fetch(url, { ...init, redirect: 'manual' }), failures)
      } catch (error) {
        failures.push(`${what}: no answer (${(error as Error).message})`)
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return requests.length
}

/** Every service still answers its health route, and nothing escaped to the process. */
async function expectAlive() {
  expect(stack.child.exitCode).toBeNull()
  for (const [service, path] of [['explorer', '/api/health'], ['exchange', '/health'], ['faucet', '/health'], ['arcade', '/api/health'], ['etherscan', '/health']] as const) {
    expect((await fetch(`${stack.urls[service]}${path}`)).status).toBe(200)
  }
  const escaped = stack.lines.filter((line) => line.msg === 'unexpected error; the stack keeps serving' || line.msg === 'unhandled error')
  expect(escaped.map((line) => JSON.stringify(line).slice(0, 400))).toEqual([])
}

describe('hostile requests against stack dev', () => {
  test('malformed path segments on every route', async () => {
    const failures: Failure[] = []
    const requests = Object.entries(templates()).flatMap(([service, paths]) =>
      paths.flatMap((path) =>
        HOSTILE.flatMap((value) => {
          const encoded = path.replace('*', encode(value))
          const raw = path.replace('*', value.replace(/[#?\s%\uD800-\uDFFF]/g, (c) => encode(c)))
          return [...new Set([encoded, raw])].map((url) => ({ service, what: `GET ${service} ${url.slice(0, 120)}`, url: `${stack.urls[service]}${url}` }))
        }),
      ),
    )
    const count = await run(requests, failures)
    expect(failures).toEqual([])
    expect(count).toBeGreaterThan(1500)
    await expectAlive()
  }, 120_000)

  test('malformed query values and shapes on every route that reads a query', async () => {
    const failures: Failure[] = []
    const requests = Object.entries(queries()).flatMap(([service, routes]) =>
      Object.entries(routes).flatMap(([path, keys]) => [
        ...keys.flatMap((key) => HOSTILE.map((value) => `${path}${path.includes('?') ? '&' : '?'}${key}=${encode(value)}`)),
        ...SHAPES.map((shape) => `${path}${path.includes('?') ? shape.replace('?', '&') : shape}`),
      ]).map((url) => ({ service, what: `GET ${service} ${url.slice(0, 120)}`, url: `${stack.urls[service]}${url}` })),
    )
    const count = await run(requests, failures)
    expect(failures).toEqual([])
    expect(count).toBeGreaterThan(1000)
    await expectAlive()
  }, 120_000)

  test('every method, with no Origin, an allowed one and a refused one', async () => {
    const failures: Failure[] = []
    const paths: Record<string, string[]> = {
      explorer: ['/api/stats', '/api/tx/0x1', '/api/nope', '/', '/api/live'],
      exchange: ['/pools', '/api/cl/ticks', '/nope'],
      faucet: ['/drip', '/api/drip', '/status', '/', '/nope'],
      arcade: ['/api/ready', '/ws/lobby', '/nope'],
      etherscan: ['/api', '/api/', '/sourcify/v2/verify/78270/0x5FbDB2315678afecb367f032d93F642f64180aa3', '/health', '/nope'],
    }
    const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'MKCOL', 'LOCK', 'SEARCH', 'PURGE']
    const requests = Object.entries(paths).flatMap(([service, list]) =>
      list.flatMap((path) =>
        methods.flatMap((method) =>
          [undefined, stack.urls[service]!, 'https://evil.example', 'null'].map((origin) => ({
            service,
            what: `${method} ${service} ${path} origin=${origin}`,
            url: `${stack.urls[service]}${path}`,
            init: {
              method,
              headers: { ...(origin ? { origin } : {}), 'content-type': 'application/json' },
              ...(['GET', 'HEAD', 'OPTIONS'].includes(method) ? {} : { body: '{"address":"0xzz"}' }),
            },
          })),
        ),
      ),
    )
    await run(requests, failures)
    expect(failures).toEqual([])
    await expectAlive()
  }, 60_000)

  test('requests written on a raw socket: no Host, HTTP/1.0, bad lengths, huge headers, odd methods, cut bodies', async () => {
    const failures: Failure[] = []
    for (const [service, base] of Object.entries(stack.urls)) {
      const port = Number(new URL(base).port)
      const api = service === 'exchange' || service === 'faucet' || service === 'etherscan' ? '' : '/api'
      const health = `${api}/health`
      const deep = service === 'explorer' ? '/api/block/1' : service === 'exchange' ? `/cl/pool/${seeded.pool}` : service === 'faucet' ? '/op-deployment/l2-addresses.json' : service === 'etherscan' ? '/api/' : '/api/rooms'
      // `bun` names what Bun's own parser answers (a bare status line and Connection: close) or
      // `close` when it closes without a word; every other answer is the app's and checked as such.
      const cases: Array<{ name: string; bytes: string | Uint8Array; status?: number; bun?: number | 'close' }> = [
        { name: 'HTTP/1.0 without Host', bytes: `GET ${health} HTTP/1.0\r\n\r\n`, status: 200 },
        { name: 'HTTP/1.0 without Host, a long path', bytes: `GET ${deep} HTTP/1.0\r\n\r\n`, status: 200 },
        { name: 'HTTP/1.0 without Host, a query', bytes: `GET ${deep}?limit=2 HTTP/1.0\r\n\r\n`, status: 200 },
        { name: 'HTTP/1.0 without Host, refused Origin', bytes: `GET ${health} HTTP/1.0\r\nOrigin: https://evil.example\r\n\r\n` },
        { name: 'HTTP/1.0 without Host, POST', bytes: `POST ${health} HTTP/1.0\r\nContent-Length: 2\r\n\r\n{}` },
        { name: 'HTTP/1.0 without Host, OPTIONS', bytes: `OPTIONS ${health} HTTP/1.0\r\n\r\n` },
        { name: 'HTTP/1.0 without Host, too large', bytes: `POST ${health} HTTP/1.0\r\nContent-Length: 9999999\r\n\r\n` },
        { name: 'HTTP/1.0 unknown path', bytes: `GET /nope/${'x'.repeat(30)} HTTP/1.0\r\n\r\n`, status: 404 },
        { name: 'HTTP/1.1 without Host', bytes: `GET ${health} HTTP/1.1\r\n\r\n`, bun: 400 },
        { name: 'empty Host', bytes: `GET ${deep} HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n`, status: 200 },
        { name: 'Host that is not a host', bytes: `GET ${health} HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n`, status: 200 },
        { name: 'Host with a path', bytes: `GET ${deep} HTTP/1.1\r\nHost: a/b?c#d\r\nConnection: close\r\n\r\n`, status: 200 },
        { name: 'Host of 12 KiB', bytes: `GET ${health} HTTP/1.1\r\nHost: ${'h'.repeat(12_000)}\r\nConnection: close\r\n\r\n` },
        { name: 'two Hosts', bytes: `GET ${health} HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n` },
        { name: 'absolute-form target', bytes: `GET http://evil.example${deep} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, status: 200 },
        { name: 'absolute-form with userinfo', bytes: `GET http://u:p@evil.example${health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n` },
        { name: 'absolute-form without Host', bytes: `GET http://evil.example${health} HTTP/1.0\r\n\r\n` },
        { name: 'CONNECT', bytes: 'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\nConnection: close\r\n\r\n' },
        { name: 'asterisk-form', bytes: 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', bun: 400 },
        { name: 'target without a slash', bytes: 'GET api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', bun: 400 },
        { name: 'unknown method token', bytes: `FROB ${health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, bun: 'close' },
        { name: 'lower-case method', bytes: `get ${health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, bun: 'close' },
        { name: 'WebDAV method', bytes: `PROPFIND ${health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n` },
        { name: 'TRACE', bytes: `TRACE ${health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n` },
        { name: 'HEAD', bytes: `HEAD ${health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n` },
        { name: 'Content-Length not a number', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: 12abc\r\n\r\n`, bun: 400 },
        { name: 'negative Content-Length', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`, bun: 400 },
        { name: 'two Content-Lengths', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`, bun: 400 },
        { name: 'Content-Length and chunked', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n`, bun: 400 },
        { name: 'a Content-Length of 200 MB', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: 200000000\r\n\r\n` },
        { name: 'a Content-Length past 2^53', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: 9007199254740993\r\n\r\n`, bun: 413 },
        { name: 'a Content-Length of 20 digits', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n`, bun: 400 },
        { name: 'malformed chunks', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\nabc\r\n0\r\n\r\n` },
        { name: 'a body cut short', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nContent-Type: application/json\r\n\r\n{"addr` },
        { name: 'headers of 100 KiB', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`, bun: 431 },
        { name: 'a request line of 70 KiB', bytes: `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, bun: 431 },
        { name: 'a hundred and fifty headers', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 150 }, (_, i) => `X-H${i}: ${i}\r\n`).join('')}Connection: close\r\n\r\n`, status: 200 },
        { name: 'three hundred headers', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 300 }, (_, i) => `X-H${i}: ${i}\r\n`).join('')}Connection: close\r\n\r\n`, bun: 431 },
        { name: 'HTTP/2.0 in the request line', bytes: `GET ${health} HTTP/2.0\r\nHost: x\r\n\r\n`, bun: 505 },
        { name: 'HTTP/0.9', bytes: `GET ${health}\r\n\r\n`, bun: 505 },
        { name: 'a control character in the target', bytes: `GET ${health}\x0b HTTP/1.1\r\nHost: x\r\n\r\n`, bun: 505 },
        { name: 'a header line without a colon', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n`, bun: 400 },
        { name: 'a folded header line', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\nConnection: close\r\n\r\n`, bun: 400 },
        { name: 'a NUL in a header value', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\nConnection: close\r\n\r\n`, bun: 400 },
        { name: 'bytes that are not UTF-8', bytes: new Uint8Array([...new TextEncoder().encode(`GET ${health}?a=`), 0xff, 0xfe, ...new TextEncoder().encode(' HTTP/1.1\r\nHost: \u00ff\r\nX-A: '), 0xc0, 0xaf, ...new TextEncoder().encode('\r\nConnection: close\r\n\r\n')]) },
        { name: 'X-Forwarded-For garbage', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${',[:'.repeat(2000)}\r\nConnection: close\r\n\r\n`, status: 200 },
        { name: 'Origin garbage', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\nOrigin: \u00ff\u00fe://\r\nConnection: close\r\n\r\n` },
        { name: 'Expect: 100-continue', bytes: `POST ${health} HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}` },
        { name: 'a WebSocket upgrade without a key', bytes: `GET /ws/lobby HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n` },
        { name: 'a WebSocket upgrade of an unknown version', bytes: `GET /ws/lobby HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 99\r\n\r\n` },
        { name: 'an upgrade to h2c', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n` },
        { name: 'the HTTP/2 preface', bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', bun: 400 },
        { name: 'two requests in one write', bytes: `GET ${health} HTTP/1.1\r\nHost: x\r\n\r\nGET ${health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, status: 200 },
        { name: 'TLS bytes on the plain port', bytes: new Uint8Array([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]), bun: 400 },
        { name: 'random bytes', bytes: new Uint8Array(Array.from({ length: 512 }, (_, i) => (i * 7919 + 13) % 256)), bun: 400 },
      ]
      for (const { name, bytes, status, bun } of cases) {
        const what = `${service} raw: ${name}`
        const answer = await rawRequest(port, bytes)
        if (answer.kind === 'bun') {
          if (bun !== answer.status) failures.push(`${what}: Bun's parser answered ${answer.status}${bun === undefined ? '' : ` (expected ${bun})`}`)
          continue
        }
        if (answer.kind === 'closed') {
          if (bun !== 'close') failures.push(`${what}: closed without an answer`)
          continue
        }
        if (answer.kind === 'none') continue // still waiting for the rest of a body, as it should
        if (bun !== undefined && bun !== 'close') failures.push(`${what}: the app answered ${answer.response.status} where Bun's parser answers ${bun}`)
        if (status !== undefined && answer.response.status !== status) failures.push(`${what}: ${answer.response.status}, expected ${status}`)
        await checkAnswer(what, service, answer.response, failures, typeof bytes === 'string' && bytes.startsWith('HEAD '))
      }
    }
    expect(failures).toEqual([])
    await expectAlive()
  }, 120_000)

  test('hostile frames on an arcade socket: answered with an error frame or a close, never a server error', async () => {
    const frames: Array<string | Uint8Array> = [
      '', ' ', 'null', 'true', '1', '"ping"', '[]', '{}', 'not json', '{"type":', '\u0000',
      '{"type":"ping","id":{"a":1}}', '{"type":"ping","id":1e309}', '{"type":"ping","id":"' + 'x'.repeat(65) + '"}',
      '{"type":"__proto__"}', '{"__proto__":{"type":"ping"}}', '{"constructor":{"prototype":{"polluted":1}},"type":"ping"}',
      '{"type":"subscribe","events":[]}', '{"type":"subscribe","events":"Placed"}', `{"type":"subscribe","events":[${'"a",'.repeat(70)}"a"]}`,
      '{"type":"subscribe","events":["' + 'e'.repeat(100) + '"]}', '{"type":"unsubscribe","events":[null]}', '{"type":"subscribe","events":["nope"]}',
      '['.repeat(1000) + ']'.repeat(1000), `{"type":"ping","id":"${'\\u0000'.repeat(10)}"}`, '{"type":"ping"}'.repeat(100),
      new Uint8Array([0xff, 0xfe, 0x00, 0x01]), new Uint8Array(0), new TextEncoder().encode('{"type":"ping"}'),
    ]
    const url = `${stack.urls.arcade!.replace(/^http/, 'ws')}/ws/coinflip`
    const failures: Failure[] = []
    // A few frames a socket, under the rate limit, one socket after another (8 per address at most).
    for (let from = 0; from < frames.length; from += 10) {
      const socket = new WebSocket(url)
      const answers: string[] = []
      const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)))
      socket.addEventListener('message', (event) => answers.push(String(event.data)))
      await new Promise((resolve, reject) => {
        socket.addEventListener('open', resolve)
        socket.addEventListener('error', reject)
      })
      for (const frame of frames.slice(from, from + 10)) socket.send(frame)
      // A last ping: the room answers in order, so its pong comes after every answer to the frames before it.
      const barrier = `after frame ${from}`
      let ended = false
      void closed.then(() => (ended = true))
      socket.send(JSON.stringify({ type: 'ping', id: barrier }))
      await waitFor(() => ended || answers.some((answer) => answer.includes(`"id":"${barrier}"`)), 'the pong after the frames', 5000)
      socket.close(1000)
      const code = await closed
      if (![1000, 1005].includes(code)) failures.push(`frames ${from}..${from + 9}: closed with ${code}`)
      for (const answer of answers) {
        const frame = JSON.parse(answer) as { type: string }
        if (!['hello', 'pong', 'error', 'subscribed', 'head', 'event'].includes(frame.type)) failures.push(`frames ${from}..${from + 9}: answered ${answer.slice(0, 200)}`)
      }
      if (!answers.some((answer) => answer.includes('"error"'))) failures.push(`frames ${from}..${from + 9}: no error frame for hostile frames`)
    }
    expect(failures).toEqual([])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    await expectAlive()
  }, 60_000)
})
