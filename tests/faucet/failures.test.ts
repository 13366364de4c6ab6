import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Hash } from 'viem'
import { JOURNAL_DIR } from '../../src/faucet/faucet.ts'
import { waitFor } from '../helpers/wait.ts'
import { faucetForFile, freshAddress, freshClient, type FaucetChain, type FaucetUnderTest } from './helpers.ts'

let chain: FaucetChain
let service: FaucetUnderTest
// A short receipt window, so that a chain that does not mine is noticed quickly.
faucetForFile((running) => ({ chain, service } = running), { toml: 'receiptTimeoutMs = 300\n' })

describe('no receipt in the window', () => {
  test('503 no receipt yet; the slot stays taken while the transaction is pending, and after it lands', async () => {
    await chain.test.setAutomine(false)
    const client = freshClient()
    const address = freshAddress()
    let hash: Hash
    try {
      const { status, body } = await service.drip(address, client)
      expect(status).toBe(503)
      expect(body.error).toBe('no receipt yet')
      hash = body.hash as Hash
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
      // Not rolled back blindly: the node knows the transaction, so it may still land.
      expect(service.faucet.book!.usage()).toMatchObject({ clients: { [client]: 1 }, addresses: { [address.toLowerCase()]: 1 } })
      expect(service.faucet.settler!.pending).toBe(1)
    } finally {
      await chain.test.setAutomine(true)
    }
    await chain.mine()
    expect((await chain.clients.publicClient.getTransactionReceipt({ hash })).status).toBe('success')
    await waitFor(() => service.faucet.settler!.pending === 0, 'the settler to settle the drip', 5000)
    expect(service.faucet.book!.usage().clients[client]).toBe(1)
  })

  test('a transaction the node drops gives the slot back, and the next drip reuses its nonce', async () => {
    const before = service.faucet.book!.usage().allTime
    await chain.test.setAutomine(false)
    const client = freshClient()
    let hash: Hash
    try {
      const { status, body } = await service.drip(freshAddress(), client)
      expect(status).toBe(503)
      hash = body.hash as Hash
      expect(service.faucet.book!.usage().allTime).toBe(before + 1)
      await chain.test.dropTransaction({ hash })
      await waitFor(() => service.faucet.settler!.pending === 0, 'the settler to settle the drip', 5000)
      expect(service.faucet.book!.usage().clients[client]).toBeUndefined()
      expect(service.faucet.book!.usage().allTime).toBe(before)
    } finally {
      await chain.test.setAutomine(true)
    }
    // Without a nonce reset the next transaction would wait behind the dropped one forever.
    expect((await service.drip(freshAddress(), client)).status).toBe(200)
  })
})

describe('concurrent drips', () => {
  test('twenty drips at once get twenty consecutive nonces and all land', async () => {
    const operator = chain.manifest.operator
    const nonce = await chain.clients.publicClient.getTransactionCount({ address: operator })
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.drip(freshAddress())))
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200))
    const transactions = await Promise.all(answers.map((answer) => chain.clients.publicClient.getTransaction({ hash: answer.body.hash as Hash })))
    expect(transactions.map((transaction) => transaction.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => nonce + index))
  })
})

describe('the node stopped', () => {
  test('status and drip answer 502, nothing is signed and nothing stays reserved', async () => {
    expect((await service.drip(freshAddress())).status).toBe(200)
    const usage = service.faucet.book!.usage()
    await chain.stop()
    const status = await service.status()
    expect(status.status).toBe(502)
    expect(status.body).toEqual({ error: 'upstream node unavailable' })
    const client = freshClient()
    for (let attempt = 0; attempt < 7; attempt++) {
      const { status, body } = await service.drip(freshAddress(), client)
      expect(status).toBe(502)
      expect(body).toEqual({ error: 'upstream node unavailable' })
    }
    expect(service.faucet.book!.usage()).toEqual(usage)
    // On disk too: every reservation has its rollback.
    const dir = join(service.dataDir, JOURNAL_DIR)
    const lines = readdirSync(dir)
      .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
      .filter((line) => line.includes(client))
      .map((line) => JSON.parse(line).type)
    expect(lines.filter((type) => type === 'reserve')).toHaveLength(7)
    expect(lines.filter((type) => type === 'rollback')).toHaveLength(7)
  })
})
