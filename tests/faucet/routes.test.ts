import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { parseEther } from 'viem'
import { MANIFEST_FILE } from '../../src/chain/manifest.ts'
import { FUND_BX, FUND_ETH, freshAddress, startFaucet, startFaucetChain, type FaucetChain, type FaucetUnderTest } from './helpers.ts'

const SITE = 'https://site.example'
const STATUS_KEYS = [
  'faucet',
  'nativeToken',
  'ethAmount',
  'bxAmount',
  'ethAmountEth',
  'bxAmountBx',
  'treasuryEth',
  'treasuryBx',
  'treasuryEthFmt',
  'treasuryBxFmt',
  'cooldown',
  'evmBlock',
  'miniBlock',
]

let chain: FaucetChain
let service: FaucetUnderTest
beforeAll(async () => {
  chain = await startFaucetChain()
  service = startFaucet(chain, { toml: `corsOrigins = ["${SITE}"]\n` })
})
afterAll(async () => {
  await service?.stop()
  await chain?.stop()
})

describe('GET /status', () => {
  test('every key of the status object, read from the chain', async () => {
    const { status, body } = await service.status()
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(STATUS_KEYS)
    expect(body).toEqual({
      faucet: chain.faucet,
      nativeToken: chain.manifest.contracts.BX,
      ethAmount: parseEther('1').toString(),
      bxAmount: parseEther('100').toString(),
      ethAmountEth: '1',
      bxAmountBx: '100',
      treasuryEth: FUND_ETH.toString(),
      treasuryBx: FUND_BX.toString(),
      treasuryEthFmt: '100 ETH',
      treasuryBxFmt: '100,000 BX',
      cooldown: 86_400,
      evmBlock: Number(await chain.clients.publicClient.getBlockNumber()),
      miniBlock: Number(await chain.clients.publicClient.getBlockNumber()),
    })
  })

  test('with an address: canDrip, retryIn and retryInFmt, before and after a drip', async () => {
    const address = freshAddress()
    const before = await service.status(`?address=${address.toLowerCase()}`)
    expect(before.body).toMatchObject({ canDrip: true, retryIn: 0, retryInFmt: '0s', quota: null })
    expect(Object.keys(before.body)).toEqual([...STATUS_KEYS, 'canDrip', 'retryIn', 'retryInFmt', 'quota'])
    expect((await service.drip(address)).status).toBe(200)
    await chain.advanceTime(60)
    const after = await service.status(`?address=${address}`)
    expect(after.body.canDrip).toBe(false)
    expect(after.body.quota).toBeNull()
    expect(after.body.retryIn).toBe(86_400 - 60)
    expect(after.body.retryInFmt).toBe('23h 59m')
    expect(after.body.treasuryEth).toBe((FUND_ETH - parseEther('1')).toString())
    expect(after.body.treasuryEthFmt).toBe('99 ETH')
  })

  test('/faucet-status and the /api mount answer the same object', async () => {
    const paths = ['/status', '/faucet-status', '/api/status', '/api/faucet-status']
    const bodies = await Promise.all(paths.map(async (path) => (await fetch(`${service.url}${path}`)).json()))
    for (const body of bodies) expect(body).toEqual(bodies[0])
  })

  test('a malformed address is 400', async () => {
    const { status, body } = await service.status('?address=0xnope')
    expect(status).toBe(400)
    expect(body).toEqual({ error: 'invalid address' })
  })
})

describe('GET /addresses', () => {
  test('the deployment manifest as it is on disk, at both paths and under /api', async () => {
    const onDisk = readFileSync(join(service.dataDir, MANIFEST_FILE), 'utf8')
    for (const path of ['/addresses', '/op-deployment/l2-addresses.json', '/api/addresses']) {
      const response = await fetch(`${service.url}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toStartWith('application/json')
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(await response.text()).toBe(onDisk)
    }
  })

  test('a JSON 404 when the manifest cannot be read', async () => {
    const other = startFaucet(chain)
    try {
      rmSync(join(other.dataDir, MANIFEST_FILE))
      const response = await fetch(`${other.url}/addresses`)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'deployment manifest not found' })
    } finally {
      await other.stop()
    }
  })
})

describe('CORS and unknown paths', () => {
  test('OPTIONS is 204 with POST, GET, OPTIONS and content-type', async () => {
    const response = await fetch(`${service.url}/drip`, { method: 'OPTIONS', headers: { origin: SITE, 'access-control-request-method': 'POST' } })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, GET, OPTIONS')
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type')
    expect(response.headers.get('access-control-allow-origin')).toBe(SITE)
  })

  test('an Origin not on the allowlist is 403, on a preflight and on a drip; an allowed one gets the headers', async () => {
    const evil = { origin: 'https://evil.example' }
    expect((await fetch(`${service.url}/drip`, { method: 'OPTIONS', headers: evil })).status).toBe(403)
    const refused = await fetch(`${service.url}/drip`, { method: 'POST', headers: { ...evil, 'content-type': 'application/json' }, body: JSON.stringify({ address: freshAddress() }) })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: 'origin not allowed' })
    const allowed = await fetch(`${service.url}/status`, { headers: { origin: SITE } })
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SITE)
  })

  test('anything neither on the API nor on the static allowlist is a JSON 404, never 403, even with a refused Origin', async () => {
    const misses: Array<[string, string]> = [
      ['GET', '/.git/config'],
      ['GET', '/.env'],
      ['GET', '/index.htm'],
      ['GET', '/faucet.js.map'],
      ['GET', '/page/index.html'],
      ['GET', '/../package.json'],
      ['GET', '/drip'],
      ['POST', '/'],
      ['POST', '/status'],
      ['DELETE', '/drip'],
      ['GET', '/api/'],
    ]
    for (const [method, path] of misses) {
      for (const headers of [{}, { origin: 'https://evil.example' }] as Array<Record<string, string>>) {
        const response = await fetch(`${service.url}${path}`, { method, headers })
        expect(response.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(404)
        expect(await response.json()).toEqual({ error: 'not found' })
        expect(response.headers.get('access-control-allow-origin')).toBeNull()
      }
    }
    // Its own paths, the page and the API at both mounts, still refuse that Origin.
    for (const [method, path] of [['GET', '/'], ['GET', '/faucet.js'], ['GET', '/status'], ['GET', '/api/status'], ['POST', '/api/drip'], ['GET', '/metrics']]) {
      const response = await fetch(`${service.url}${path}`, { method, headers: { origin: 'https://evil.example' } })
      expect(response.status, `${method} ${path}`).toBe(403)
      expect(await response.json()).toEqual({ error: 'origin not allowed' })
    }
  })
})

describe('client identity', () => {
  test('X-Forwarded-For with no trusted hop is warned about once, and every caller is the proxy', async () => {
    const direct = startFaucet(chain, { toml: 'trustedProxyHops = 0\n' })
    try {
      for (const client of ['203.0.113.1', '203.0.113.2']) {
        await fetch(`${direct.url}/status`, { headers: { 'x-forwarded-for': client } })
      }
      const warnings = direct.lines.filter((line) => String(line.msg).includes('trustedProxyHops is 0'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]!.level).toBe(40)
      expect((await direct.drip(freshAddress(), '203.0.113.1')).status).toBe(200)
      expect(direct.faucet.book!.usage().clients).toEqual({ '127.0.0.1': 1 })
    } finally {
      await direct.stop()
    }
  })

  test('with one trusted hop the right-hand end of X-Forwarded-For is the client', async () => {
    const address = freshAddress()
    expect((await service.drip(address, '6.6.6.6, 203.0.113.77')).status).toBe(200)
    expect(service.faucet.book!.usage().clients['203.0.113.77']).toBe(1)
  })
})
