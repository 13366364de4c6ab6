import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { createArcadeApp } from '../../src/arcade/app.ts'
import { createExchangeApp } from '../../src/exchange/app.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import { manifestPath } from '../../src/chain/manifest.ts'
import { createFaucetApp } from '../../src/faucet/app.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { rawRequest } from '../helpers/rawHttp.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'

// HEAD on each of the four services, on the wire (fetch would not show what a HEAD carries).
// The explorer, the faucet and the arcade answer it as the GET of the same path without the
// body; the exchange index implements no verb but GET, so HEAD is its 404. None of it needs the
// chain: the node they are given is not there.

const NO_NODE = '[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n'
const context = testContext(NO_NODE)
const spool = await startSpool(context.config, spoolWiring(context.config), context.log)
// The faucet streams its deployment manifest from the file: one is there, as after a deployment.
const faucetContext = testContext(NO_NODE)
const manifest = manifestPath(faucetContext.config.dataDir)
mkdirSync(dirname(manifest), { recursive: true })
writeFileSync(manifest, JSON.stringify({ chainId: 78270, contracts: {} }))
const services = {
  explorer: serveOnFreePort(createExplorerApp(context, spool), 'explorer'),
  faucet: serveOnFreePort(createFaucetApp(faucetContext), 'faucet'),
  arcade: serveOnFreePort(createArcadeApp(testContext(NO_NODE)), 'arcade'),
  exchange: serveOnFreePort(createExchangeApp(testContext(NO_NODE), spool), 'exchange'),
}
afterAll(async () => {
  await Promise.all(Object.values(services).map((service) => service.stop()))
  await spool.stop()
})

type Wire = { status: number; headers: Headers; body: string }

/** One request written on a socket, the answer read until the server closes the connection. */
async function wire(service: keyof typeof services, method: string, path: string): Promise<Wire> {
  const answer = await rawRequest(services[service].port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 3000)
  if (answer.kind !== 'app') throw new Error(`${method} ${path}: no answer of the app (${answer.kind})`)
  return { status: answer.response.status, headers: answer.response.headers, body: answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4) }
}

/** HEAD answers as GET does: the same status, content type and length, and no body. */
async function expectHeadAsGet(service: keyof typeof services, path: string) {
  const [get, head] = [await wire(service, 'GET', path), await wire(service, 'HEAD', path)]
  const what = `HEAD ${service} ${path}`
  expect(head.status, what).toBe(get.status)
  expect(head.headers.get('content-length'), what).toBe(get.headers.get('content-length'))
  expect(head.headers.get('content-length'), what).not.toBeNull()
  expect(head.headers.get('content-type'), what).toBe(get.headers.get('content-type'))
  expect(head.headers.get('cache-control'), what).toBe('no-store')
  expect(head.body, what).toBe('')
  return { get, head }
}

describe('HEAD is the GET without its body', () => {
  test('explorer: pages, API routes, errors and unknown paths', async () => {
    for (const path of ['/', '/app.css', '/api/fees', '/api/tokenlist', '/api/block/nope', '/api/nope', '/nope/x']) await expectHeadAsGet('explorer', path)
    const { head } = await expectHeadAsGet('explorer', '/api/nope')
    expect(head.status).toBe(404)
    expect(Number(head.headers.get('content-length'))).toBe('{"error":"not found"}'.length)
  })

  test('faucet: its page, its API at both mounts, errors and unknown paths', async () => {
    for (const path of ['/', '/index.html', '/faucet.js', '/faucet.css', '/status', '/api/faucet-status', '/addresses', '/api/op-deployment/l2-addresses.json', '/drip', '/.git/config']) {
      await expectHeadAsGet('faucet', path)
    }
    const { head } = await expectHeadAsGet('faucet', '/faucet.css')
    expect(head.status).toBe(200)
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100)
    const streamed = await expectHeadAsGet('faucet', '/addresses')
    expect(streamed.head.status).toBe(200)
    expect(Number(streamed.head.headers.get('content-length'))).toBe(JSON.stringify({ chainId: 78270, contracts: {} }).length)
  })

  test('arcade: its API, errors and unknown paths', async () => {
    for (const path of ['/api/rooms', '/api/ready', '/api/nope', '/ws/nope', '/nope']) await expectHeadAsGet('arcade', path)
    const { head } = await expectHeadAsGet('arcade', '/api/rooms')
    expect(head.status).toBe(200)
  })

  test('/metrics answers HEAD with a length (its figures move between two requests, so not the same one)', async () => {
    for (const service of ['explorer', 'faucet', 'arcade'] as const) {
      const head = await wire(service, 'HEAD', '/metrics')
      expect(head.status).toBe(200)
      expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100)
      expect(head.body).toBe('')
    }
  })

  test("the explorer's live stream: its headers without a length, as its GET has none, and no stream left open", async () => {
    const head = await wire('explorer', 'HEAD', '/api/live')
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('text/event-stream')
    expect(head.headers.get('content-length')).toBeNull()
    expect(head.headers.get('transfer-encoding')).toBe('chunked')
    expect(head.body).toBe('')
    const openStreams = async () => /^stack_explorer_live_streams\{[^}]*\} (\d+)$/m.exec(await (await fetch(`${services.explorer.url}/metrics`)).text())?.[1]
    await waitFor(async () => (await openStreams()) === '0', 'no live stream open', 2000)
  })
})

describe('the exchange index implements no verb but GET', () => {
  test('HEAD is the 404 on every path, routes and /metrics included, as any other verb', async () => {
    const missing = await wire('exchange', 'GET', '/nope')
    expect(missing.status).toBe(404)
    for (const path of ['/pools', '/api/pools', '/health', '/metrics', '/nope']) {
      const head = await wire('exchange', 'HEAD', path)
      expect(head.status, path).toBe(404)
      expect(head.headers.get('content-length'), path).toBe(missing.headers.get('content-length'))
      expect(head.headers.get('content-type'), path).toStartWith('application/json')
      expect(head.headers.get('cache-control'), path).toBe('no-store')
      expect(head.body, path).toBe('')
      const post = await fetch(`${services.exchange.url}${path}`, { method: 'POST' })
      expect(post.status, path).toBe(404)
      expect(await post.json()).toEqual({ error: 'not found' })
    }
  })
})
