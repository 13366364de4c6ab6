import { afterAll, describe, expect, test } from 'bun:test'
import { startSpool } from '../src/spool/spool.ts'
import { spoolWiring } from '../src/streams.ts'
import { createArcadeApp } from '../src/arcade/app.ts'
import { createEtherscanApp } from '../src/etherscan/app.ts'
import { createExchangeApp } from '../src/exchange/app.ts'
import { createExplorerApp } from '../src/explorer/app.ts'
import { createFaucetApp } from '../src/faucet/app.ts'
import { serveOnFreePort, testContext } from './helpers/service.ts'

const SITE = 'https://site.example'
const EVIL = 'https://evil.example'
const context = testContext(
  ['explorer', 'faucet', 'arcade', 'etherscan'].map((name) => `[${name}]\ncorsOrigins = ["${SITE}"]\n`).join(''),
)
// A real spool over the config's node, which is not running: it waits for it.
const spool = await startSpool(context.config, spoolWiring(context.config), context.log)
const explorer = serveOnFreePort(createExplorerApp(context, spool), 'explorer')
const exchange = serveOnFreePort(createExchangeApp(context, spool), 'exchange')
const faucet = serveOnFreePort(createFaucetApp(context), 'faucet')
const arcade = serveOnFreePort(createArcadeApp(context), 'arcade')
const etherscan = serveOnFreePort(createEtherscanApp(context, spool), 'etherscan')
afterAll(async () => {
  await Promise.all([explorer, exchange, faucet, arcade, etherscan].map((service) => service.stop()))
  await spool.stop()
})

async function expectJson(response: Response, status: number) {
  expect(response.status).toBe(status)
  expect(response.headers.get('cache-control')).toBe('no-store')
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  expect(response.headers.get('content-type')).toStartWith('application/json')
  return (await response.json()) as Record<string, unknown>
}

const corsHeaderNames = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control'))

describe('explorer (4010, /api)', () => {
  test('health answers', async () => {
    expect(await expectJson(await fetch(`${explorer.url}/api/health`), 200)).toMatchObject({ service: 'explorer', status: 'ok' })
  })

  test('any POST is a JSON 405 with the CORS headers', async () => {
    const body = await expectJson(await fetch(`${explorer.url}/api/anything`, { method: 'POST', headers: { origin: SITE } }), 405)
    expect(body).toEqual({ error: 'method not allowed' })
    const again = await fetch(`${explorer.url}/api/stats`, { method: 'POST', headers: { origin: SITE }, body: '{}' })
    expect(again.status).toBe(405)
    expect(again.headers.get('access-control-allow-origin')).toBe(SITE)
  })

  test('an Origin not on the allowlist is a JSON 403, on requests and preflights', async () => {
    await expectJson(await fetch(`${explorer.url}/api/stats`, { headers: { origin: EVIL } }), 403)
    await expectJson(await fetch(`${explorer.url}/api/stats`, { method: 'OPTIONS', headers: { origin: EVIL } }), 403)
  })

  test('a preflight announces GET and OPTIONS and the Content-Type header, with an Origin or without', async () => {
    for (const headers of [{ origin: SITE }, {}] as Array<Record<string, string>>) {
      const response = await fetch(`${explorer.url}/api/stats`, { method: 'OPTIONS', headers })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS')
      expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type')
    }
  })

  test('unknown routes, inside and outside the mount, are JSON 404s; the root is the pages', async () => {
    await expectJson(await fetch(`${explorer.url}/api/nope`), 404)
    await expectJson(await fetch(`${explorer.url}/nope`), 404)
    const root = await fetch(`${explorer.url}/`)
    expect([root.status, root.headers.get('content-type'), root.headers.get('cache-control')]).toEqual([200, 'text/html;charset=utf-8', 'no-store'])
  })
})

describe('exchange index (4020, / and /api)', () => {
  test('health answers at both mounts with the health object', async () => {
    for (const path of ['/health', '/api/health']) {
      const body = await expectJson(await fetch(`${exchange.url}${path}`), 200)
      expect(Object.keys(body)).toEqual(['cursorBlock', 'lagBlocks', 'updatedAt', 'spoolHeadBlock', 'streams'])
    }
  })

  test('no CORS headers at all, whatever the Origin', async () => {
    const response = await fetch(`${exchange.url}/health`, { headers: { origin: EVIL } })
    expect(response.status).toBe(200)
    expect(corsHeaderNames(response)).toEqual([])
  })

  test('no OPTIONS handler and no verb but GET', async () => {
    await expectJson(await fetch(`${exchange.url}/health`, { method: 'OPTIONS', headers: { origin: SITE } }), 404)
    await expectJson(await fetch(`${exchange.url}/health`, { method: 'POST' }), 404)
  })

  test('an unknown route is a JSON 404 with nosniff', async () => {
    expect(await expectJson(await fetch(`${exchange.url}/nope`), 404)).toEqual({ error: 'not found' })
  })
})

describe('faucet (3000, / and /api)', () => {
  test('health answers at both mounts', async () => {
    for (const path of ['/health', '/api/health']) await expectJson(await fetch(`${faucet.url}${path}`), 200)
  })

  test('a preflight announces POST, GET and OPTIONS and content-type, with an Origin or without', async () => {
    for (const headers of [{ origin: SITE }, {}] as Array<Record<string, string>>) {
      const response = await fetch(`${faucet.url}/drip`, { method: 'OPTIONS', headers })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS')
      expect(response.headers.get('access-control-allow-headers')).toBe('content-type')
    }
  })

  test('an Origin not on the allowlist is refused 403', async () => {
    await expectJson(await fetch(`${faucet.url}/status`, { headers: { origin: EVIL } }), 403)
  })

  test('anything off the API answers 404, never 403', async () => {
    await expectJson(await fetch(`${faucet.url}/.env`), 404)
  })

  test('with no deployment and no operator key, status answers 500 and drip 503, saying why', async () => {
    const status = await expectJson(await fetch(`${faucet.url}/status`), 500)
    expect(status.error).toStartWith('faucet not deployed')
    const drip = await fetch(`${faucet.url}/drip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
    })
    expect(await expectJson(drip, 503)).toEqual({ error: 'faucet disabled: FAUCET_OPERATOR_KEY is not set' })
  })
})

describe('arcade (4030, /api)', () => {
  test('health answers; readiness is 503 while no node socket is open', async () => {
    await expectJson(await fetch(`${arcade.url}/api/health`), 200)
    expect(await expectJson(await fetch(`${arcade.url}/api/ready`), 503)).toEqual({ error: 'not ready: the node socket is down' })
  })

  test('writes are refused 405', async () => {
    await expectJson(await fetch(`${arcade.url}/api/stats`, { method: 'POST' }), 405)
  })
})

describe('the Etherscan-compatible API (4040, /api and /sourcify/)', () => {
  test("health answers in the conventions' shape", async () => {
    expect(await expectJson(await fetch(`${etherscan.url}/health`), 200)).toMatchObject({ service: 'etherscan', status: 'ok', spoolHeadBlock: null, verifiedContracts: 0 })
  })

  test("an unknown module or action is Etherscan's NOTOK with HTTP 200, by GET or by a POSTed form", async () => {
    expect(await expectJson(await fetch(`${etherscan.url}/api?module=nothing&action=x`), 200)).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Missing Or invalid Module name' })
    const form = await fetch(`${etherscan.url}/api/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SITE }, body: 'module=nothing&apikey=x' })
    expect(form.headers.get('access-control-allow-origin')).toBe(SITE)
    expect(await expectJson(form, 200)).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Missing Or invalid Module name' })
  })

  test('anything off its routes is the JSON 404; an Origin not on the allowlist is 403', async () => {
    expect(await expectJson(await fetch(`${etherscan.url}/nothing`), 404)).toEqual({ error: 'not found' })
    await expectJson(await fetch(`${etherscan.url}/api?module=contract`, { headers: { origin: EVIL } }), 403)
  })

  test('a body past 16 MiB is a JSON 413, declared or streamed in chunks', async () => {
    const big = new Uint8Array(16 * 1024 * 1024 + 1).fill(0x61)
    const declared = await fetch(`${etherscan.url}/api`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: big })
    expect((await expectJson(declared, 413)).error).toStartWith('payload too large')
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let sent = 0; sent <= 16 * 1024 * 1024; sent += 1024 * 1024) controller.enqueue(new Uint8Array(1024 * 1024).fill(0x61))
        controller.close()
      },
    })
    const streamed = await fetch(`${etherscan.url}/api`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: chunks })
    expect((await expectJson(streamed, 413)).error).toStartWith('payload too large')
  })

  test('a POST body that is neither form is a JSON 400', async () => {
    const response = await fetch(`${etherscan.url}/api`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'module=contract' })
    expect((await expectJson(response, 400)).error).toContain('x-www-form-urlencoded')
  })
})
