import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { JOURNAL_DIR } from '../../src/faucet/faucet.ts'
import { QuotaBook } from '../../src/faucet/quota/book.ts'
import { DEV_OPERATOR_KEY, freshAddress, freshClient, startFaucet, startFaucetChain, type FaucetChain } from './helpers.ts'
import { linesOf } from '../helpers/lines.ts'

let chain: FaucetChain
beforeAll(async () => {
  chain = await startFaucetChain()
})
afterAll(() => chain?.stop())

const FIXTURES = join(import.meta.dir, 'fixtures')

/** Opens the journal the way the faucet does at start, to see what it rebuilds. */
const reopen = (dir: string) =>
  QuotaBook.open({ dir, limits: { perClient: 5, perAddress: 2, global: 1000, allTime: 1e9 }, maxBytes: 1 << 20, maxAgeMs: 86_400_000, clock: Date.now })

describe('recovery', () => {
  test('after rotations, a restarted faucet has every counter back', async () => {
    const first = startFaucet(chain, { toml: 'journalMaxBytes = 4096\n' })
    const clients = [freshClient(), freshClient(), freshClient()]
    for (let drip = 0; drip < 15; drip++) expect((await first.drip(freshAddress(), clients[drip % 3])).status).toBe(200)
    const usage = first.faucet.book!.usage()
    await first.stop()
    const files = readdirSync(join(first.dataDir, JOURNAL_DIR)).filter((name) => name.startsWith('journal-'))
    expect(files.length).toBeGreaterThanOrEqual(2)
    for (const name of files) expect(JSON.parse(readFileSync(join(first.dataDir, JOURNAL_DIR, name), 'utf8').split('\n')[0]!).type).toBe('checkpoint')

    const again = startFaucet(chain, { dataDir: first.dataDir, toml: 'journalMaxBytes = 4096\n' })
    try {
      expect(again.faucet.book!.usage()).toEqual(usage)
      expect(again.faucet.book!.recovery).toMatchObject({ released: 0, unsettled: 0, missingFiles: 0 })
      // Each of the three clients has used all five of its drips for today.
      expect((await again.drip(freshAddress(), clients[0])).body.quota).toBe('client')
    } finally {
      await again.stop()
    }
  })
})

describe('kill -9', () => {
  test('at any moment of a write loop, no committed drip is lost from the all-time total', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faucet-kill-'))
    let committed = 0
    for (const stopAt of [25, 300, 900, 1700]) {
      const child = Bun.spawn([process.execPath, join(FIXTURES, 'journalWriter.ts'), dir], { stdout: 'pipe', stderr: 'inherit' })
      for await (const line of linesOf(child.stdout)) {
        committed = Number(line.split(' ')[1])
        if (committed >= stopAt) child.kill('SIGKILL')
      }
      expect(await child.exited).not.toBe(0)
      const book = reopen(dir)
      const { allTime } = book.usage()
      book.close()
      // Every commit it reported is there; at most the one reservation in flight is added.
      expect(allTime).toBeGreaterThanOrEqual(committed)
      expect(allTime).toBeLessThanOrEqual(committed + 1)
      committed = allTime
    }
  }, 30_000)

  test('a faucet killed in the middle of a storm of drips has counted every drip the chain paid', async () => {
    const dataDir = chain.dataDir()
    const configFile = join(dataDir, 'stack.toml')
    writeFileSync(configFile, `[chain]\nrpc = "${chain.anvil.rpcUrl}"\nws = "${chain.anvil.wsUrl}"\n[data]\ndir = "${dataDir}"\n[faucet]\ntrustedProxyHops = 1\nport = 0\n`)
    const before = await chain.dripCount()
    let answered200 = 0
    for (const killAfter of [3, 11, 20]) {
      const child = Bun.spawn([process.execPath, join(FIXTURES, 'faucetProcess.ts'), configFile], {
        stdout: 'pipe',
        stderr: 'inherit',
        env: { ...process.env, FAUCET_OPERATOR_KEY: DEV_OPERATOR_KEY },
      })
      const lines = linesOf(child.stdout)
      const { url } = JSON.parse((await lines.next()).value as string) as { url: string }
      let answers = 0
      const storm = Array.from({ length: 30 }, async () => {
        try {
          const response = await fetch(`${url}/drip`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': freshClient() },
            body: JSON.stringify({ address: freshAddress() }),
          })
          if (response.status === 200) answered200++
          if (++answers === killAfter) child.kill('SIGKILL')
        } catch {
          // The connection died with the process.
        }
      })
      await Promise.all(storm)
      expect(await child.exited).not.toBe(0)
    }
    const paid = (await chain.dripCount()) - before
    expect(paid).toBeGreaterThanOrEqual(answered200)
    const book = reopen(join(dataDir, JOURNAL_DIR))
    try {
      expect(book.usage().allTime).toBeGreaterThanOrEqual(paid)
    } finally {
      book.close()
    }
  }, 30_000)
})
