import { describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { JOURNAL_DIR } from '../../src/faucet/faucet.ts'
import { utcDay } from '../../src/faucet/quota/day.ts'
import type { Checkpoint } from '../../src/faucet/quota/entries.ts'
import { faucetForFile, freshAddress, freshClient, startFaucet, type FaucetChain, type FaucetUnderTest } from './helpers.ts'

let chain: FaucetChain
let service: FaucetUnderTest
faucetForFile((running) => ({ chain, service } = running))

const count = (statuses: number[]) => statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {})

describe('storms', () => {
  test('50 drips at once from one client for 50 addresses: exactly 5 pass, 45 are 429 naming the client quota', async () => {
    const client = freshClient()
    const before = await chain.dripCount()
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.drip(freshAddress(), client)))
    expect(count(answers.map((answer) => answer.status))).toEqual({ 200: 5, 429: 45 })
    for (const answer of answers.filter((answer) => answer.status === 429)) {
      expect(answer.body).toMatchObject({ error: 'daily quota reached: at most 5 drips a day per client', quota: 'client' })
    }
    expect(await chain.dripCount()).toBe(before + 5)
  })

  test('50 drips at once for one address from 50 clients: exactly 1 passes, the rest are 409 or 429', async () => {
    const address = freshAddress()
    const before = await chain.dripCount()
    const answers = await Promise.all(Array.from({ length: 50 }, () => service.drip(address, freshClient())))
    const statuses = count(answers.map((answer) => answer.status))
    expect(statuses[200]).toBe(1)
    expect((statuses[409] ?? 0) + (statuses[429] ?? 0)).toBe(49)
    // The per-address quota lets a second request through to the cooldown, which refuses it
    // (409) and gives its slot back: a request that arrives after that takes the slot and is
    // refused by the cooldown too, the others meanwhile by the quota (429). How many arrive that
    // late depends on how fast the first drip lands; the second request is always one.
    expect(statuses[409]).toBeGreaterThanOrEqual(1)
    expect(await chain.dripCount()).toBe(before + 1)
    expect(await chain.ethBalance(address)).toBe(10n ** 18n)
  })
})

describe('each quota reaches 429 with a message naming it', () => {
  test('per address: two drips a day, even when the chain cooldown has passed', async () => {
    const address = freshAddress()
    expect((await service.drip(address)).status).toBe(200)
    await chain.advanceTime(86_401)
    expect((await service.drip(address)).status).toBe(200)
    await chain.advanceTime(86_401)
    // The cooldown has run out, the quota has not reset: the status says no drip would pass, and until when.
    const { body: said } = await service.status(`?address=${address}`)
    const { status, body } = await service.drip(address)
    expect(status).toBe(429)
    expect(body).toMatchObject({ error: 'daily quota reached: at most 2 drips a day per address', quota: 'address' })
    expect(body.resetsIn).toBeGreaterThan(0)
    expect(said).toMatchObject({ canDrip: false, quota: 'address' })
    expect(Math.abs(Number(said.retryIn) - Number(body.resetsIn))).toBeLessThanOrEqual(1)
    // Another address is not refused by it.
    expect((await service.status(`?address=${freshAddress()}`)).body).toMatchObject({ canDrip: true, retryIn: 0, quota: null })
  })

  test('global: 1000 a day', async () => {
    // Today's journal already holds 999 drips.
    const dataDir = chain.dataDir()
    const checkpoint: Checkpoint = { type: 'checkpoint', version: 2, at: new Date().toISOString(), day: utcDay(Date.now()), global: 999, clients: {}, addresses: {}, allTime: 999, open: [] }
    mkdirSync(join(dataDir, JOURNAL_DIR))
    writeFileSync(join(dataDir, JOURNAL_DIR, 'journal-00000001.jsonl'), `${JSON.stringify(checkpoint)}\n`)
    const busy = startFaucet(chain, { dataDir })
    try {
      expect((await busy.status(`?address=${freshAddress()}`)).body).toMatchObject({ canDrip: true, quota: null })
      expect((await busy.drip(freshAddress())).status).toBe(200)
      const { status, body } = await busy.drip(freshAddress())
      expect(status).toBe(429)
      expect(body).toMatchObject({ error: 'daily quota reached: the faucet pays at most 1000 drips a day', quota: 'global' })
      const { body: said } = await busy.status(`?address=${freshAddress()}`)
      expect(said).toMatchObject({ canDrip: false, quota: 'global' })
      expect(Math.abs(Number(said.retryIn) - Number(body.resetsIn))).toBeLessThanOrEqual(1)
    } finally {
      await busy.stop()
    }
  })

  test('all-time budget, kept across a restart', async () => {
    const dataDir = chain.dataDir()
    const first = startFaucet(chain, { dataDir, toml: 'allTimeBudget = 2\n' })
    try {
      expect((await first.drip(freshAddress())).status).toBe(200)
      expect((await first.drip(freshAddress())).status).toBe(200)
      const { status, body } = await first.drip(freshAddress())
      expect(status).toBe(429)
      expect(body).toEqual({ error: 'all-time budget reached: the faucet pays at most 2 drips in all', quota: 'allTime' })
      // It never resets: the wait stays the cooldown's (none for a fresh address), and no drip would pass.
      expect((await first.status(`?address=${freshAddress()}`)).body).toMatchObject({ canDrip: false, retryIn: 0, quota: 'allTime' })
    } finally {
      await first.stop()
    }
    const restarted = startFaucet(chain, { dataDir, toml: 'allTimeBudget = 2\n', clock: () => Date.now() + 3 * 86_400_000 })
    try {
      expect((await restarted.drip(freshAddress())).body.quota).toBe('allTime')
    } finally {
      await restarted.stop()
    }
  })
})

describe('rollback', () => {
  test('failed attempts cost no daily slot: five refusals, then five drips, then the 429', async () => {
    const dripped = freshAddress()
    expect((await service.drip(dripped)).status).toBe(200)
    const client = freshClient()
    for (let attempt = 0; attempt < 5; attempt++) expect((await service.drip(dripped, client)).status).toBe(409)
    for (let drip = 0; drip < 5; drip++) expect((await service.drip(freshAddress(), client)).status).toBe(200)
    expect((await service.drip(freshAddress(), client)).status).toBe(429)
  })
})
