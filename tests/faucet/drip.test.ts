import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getAddress, parseEther, type Hash } from 'viem'
import { ANVIL_DEV_KEYS } from '../../src/devnet/accounts.ts'
import { waitFor } from '../helpers/wait.ts'
import { FUND_ETH, faucetForFile, freshAddress, freshClient, startFaucet, type FaucetChain, type FaucetUnderTest } from './helpers.ts'

let chain: FaucetChain
let service: FaucetUnderTest
faucetForFile((running) => ({ chain, service } = running))

const post = (body: string | null, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${service.url}/drip`, { method: 'POST', headers: { 'x-forwarded-for': freshClient(), ...headers }, body })

/** Sends bytes as they are, for requests fetch will not make. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

async function expectError(response: Response, status: number): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toStartWith('application/json')
  expect(response.headers.get('cache-control')).toBe('no-store')
  const body = (await response.json()) as Record<string, unknown>
  expect(typeof body.error).toBe('string')
  return body
}

describe('a drip', () => {
  test('pays the address ether and BX, answers {hash, address} after the receipt', async () => {
    const address = freshAddress()
    const { status, body } = await service.drip(address.toLowerCase())
    expect(status).toBe(200)
    expect(Object.keys(body)).toEqual(['hash', 'address'])
    expect(body.address).toBe(getAddress(address))
    expect(body.hash).toMatch(/^0x[0-9a-f]{64}$/)
    const receipt = await chain.clients.publicClient.getTransactionReceipt({ hash: body.hash as Hash })
    expect(receipt.status).toBe('success')
    expect(await chain.ethBalance(address)).toBe(parseEther('1'))
    expect(await chain.bxBalance(address)).toBe(parseEther('100'))
  })

  test('the same under /api', async () => {
    const response = await fetch(`${service.url}/api/drip`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': freshClient() },
      body: JSON.stringify({ address: freshAddress() }),
    })
    expect(response.status).toBe(200)
  })
})

describe('the request rules', () => {
  const valid = () => JSON.stringify({ address: freshAddress() })

  test('an empty body is 413, a body over 4096 bytes is 413', async () => {
    expect(await expectError(await post(''), 413)).toEqual({ error: 'a body is required' })
    expect(await expectError(await post(null), 413)).toEqual({ error: 'a body is required' })
    await expectError(await post(JSON.stringify({ address: freshAddress(), pad: 'x'.repeat(4100) })), 413)
  })

  test('a chunked body is refused 400', async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(valid()))
        controller.close()
      },
    })
    const response = await fetch(`${service.url}/drip`, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit)
    const refused = await expectError(response, 400)
    expect(refused.error).toContain('chunked')
  })

  test('a Content-Length that is not a length is 400', async () => {
    const answer = await rawRequest(service.port, `POST /drip HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 12abc\r\nConnection: close\r\n\r\n{}`)
    expect(answer).toStartWith('HTTP/1.1 400')
  })

  test('JSON that does not parse, another content type, a bad address: 400', async () => {
    expect(await expectError(await post('{"address": '), 400)).toEqual({ error: 'invalid json' })
    expect(await expectError(await post(valid(), { 'content-type': 'text/plain' }), 400)).toEqual({ error: 'content-type must be application/json' })
    expect(await expectError(await post(JSON.stringify({ address: '0x1234' })), 400)).toEqual({ error: 'invalid address' })
    expect(await expectError(await post(JSON.stringify({ wallet: freshAddress() })), 400)).toEqual({ error: 'invalid address' })
  })

  test('no refused request took a quota slot', () => {
    expect(service.faucet.book!.usage()).toMatchObject({ open: 0 })
    expect(service.faucet.book!.usage().global).toBe(2)
  })
})

describe('refusals from the chain', () => {
  test('the cooldown read from the contract: 409 with the interval to wait, and the slot given back', async () => {
    const address = freshAddress()
    expect((await service.drip(address)).status).toBe(200)
    const client = freshClient()
    const { status, body } = await service.drip(address, client)
    expect(status).toBe(409)
    expect(body.error).toMatch(new RegExp(`^cooling down: ${getAddress(address)} may drip again in (1d|23h 59m \\d+s)$`))
    expect(body.retryIn).toBeGreaterThan(86_000)
    expect(body.retryIn).toBeLessThanOrEqual(86_400)
    expect(service.faucet.book!.usage().clients[client]).toBeUndefined()
  })

  test('an empty treasury: 503 naming what is left', async () => {
    await chain.test.setBalance({ address: chain.faucet, value: parseEther('0.5') })
    try {
      const client = freshClient()
      const { status, body } = await service.drip(freshAddress(), client)
      expect(status).toBe(503)
      expect(body.error).toMatch(/^faucet empty: 0\.5 ETH and [\d,]+ BX left$/)
      expect(body.treasuryEth).toBe(parseEther('0.5').toString())
      expect(service.faucet.book!.usage().clients[client]).toBeUndefined()
    } finally {
      await chain.test.setBalance({ address: chain.faucet, value: FUND_ETH })
    }
  })

  test('a drip the contract would revert (an address that refuses ether): 503 drip failed, nothing sent', async () => {
    const operator = await chain.clients.publicClient.getTransactionCount({ address: chain.manifest.operator })
    const client = freshClient()
    const { status, body } = await service.drip(chain.manifest.contracts.BX, client)
    expect(status).toBe(503)
    expect(body).toEqual({ error: 'drip failed' })
    expect(await chain.clients.publicClient.getTransactionCount({ address: chain.manifest.operator })).toBe(operator)
    expect(service.faucet.book!.usage().clients[client]).toBeUndefined()
  })

  test('a drip that reverts in its block: 503 drip failed, the slot given back', async () => {
    const operator = chain.manifest.operator
    const nonce = await chain.clients.publicClient.getTransactionCount({ address: operator })
    await chain.test.setAutomine(false)
    try {
      const client = freshClient()
      const answer = service.drip(freshAddress(), client)
      await waitFor(async () => (await chain.clients.publicClient.getTransactionCount({ address: operator, blockTag: 'pending' })) > nonce, 'the drip to be sent', 5000)
      // The treasury empties between the simulation and the block: the contract reverts.
      await chain.test.setBalance({ address: chain.faucet, value: 0n })
      await chain.mine()
      const { status, body } = await answer
      expect(status).toBe(503)
      expect(body).toEqual({ error: 'drip failed' })
      expect(service.faucet.book!.usage().clients[client]).toBeUndefined()
    } finally {
      await chain.test.setBalance({ address: chain.faucet, value: FUND_ETH })
      await chain.test.setAutomine(true)
    }
  })
})

describe('a faucet that does not drip', () => {
  test('without an operator key: status answers, a drip is 503', async () => {
    const keyless = startFaucet(chain, { env: {} })
    try {
      expect((await keyless.status()).status).toBe(200)
      const { status, body } = await keyless.drip(freshAddress())
      expect(status).toBe(503)
      expect(body).toEqual({ error: 'faucet disabled: FAUCET_OPERATOR_KEY is not set' })
    } finally {
      await keyless.stop()
    }
  })

  test('with a key that is not the contract operator: 503 drip failed, said in the log, nothing sent', async () => {
    const stranger = startFaucet(chain, { env: { FAUCET_OPERATOR_KEY: ANVIL_DEV_KEYS[4] } })
    try {
      const { status, body } = await stranger.drip(freshAddress())
      expect(status).toBe(503)
      expect(body).toEqual({ error: 'drip failed' })
      expect(stranger.lines.some((line) => line.msg === 'the operator key is not the faucet contract operator')).toBe(true)
      expect(stranger.faucet.book!.usage()).toMatchObject({ global: 0, allTime: 0 })
    } finally {
      await stranger.stop()
    }
  })

  test('without a deployment: status is 500 and drip 503 until the manifest appears or the config names the contract', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'faucet-empty-'))
    const undeployed = startFaucet(chain, { dataDir: empty })
    const configured = startFaucet(chain, { dataDir: empty, toml: `contract = "${chain.faucet.toLowerCase()}"\n` })
    try {
      const status = await undeployed.status()
      // /status is 502 when the node is unreachable and 500 for anything else.
      expect(status.status).toBe(500)
      expect(status.body.error).toStartWith('faucet not deployed')
      expect((await undeployed.drip(freshAddress())).status).toBe(503)
      expect(undeployed.faucet.book!.usage().global).toBe(0)
      const found = await configured.status()
      expect(found.status).toBe(200)
      expect(found.body.faucet).toBe(chain.faucet)
      expect((await configured.drip(freshAddress())).status).toBe(200)
    } finally {
      await undeployed.stop()
      await configured.stop()
    }
  })
})
