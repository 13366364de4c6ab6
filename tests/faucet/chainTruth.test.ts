import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { getAddress, parseEther } from 'viem'
import { JOURNAL_DIR } from '../../src/faucet/faucet.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { linesOf } from '../helpers/lines.ts'
import { testContext } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'
import { DEV_OPERATOR_KEY, freshAddress, freshClient, startFaucet, startFaucetChain, type FaucetChain } from './helpers.ts'

// The chain is the truth for what the faucet paid: a node that forgets the operator's
// transactions, a journal file that is gone, and reservations a kill -9 left open all end with
// the faucet paying and counting what the chain shows.

let chain: FaucetChain
beforeAll(async () => {
  chain = await startFaucetChain()
})
afterAll(() => chain?.stop())

const FIXTURES = join(import.meta.dir, 'fixtures')
const ONE_ETHER = parseEther('1')

describe('a node that forgets the operator’s transactions', () => {
  test('after an evm_revert behind the faucet’s back, the next drips pay', async () => {
    const service = startFaucet(chain)
    try {
      const snapshot = await chain.test.snapshot()
      const first = freshAddress()
      for (const to of [first, freshAddress()]) expect((await service.drip(to)).status).toBe(200)
      // The node goes back to before both drips: the operator's nonce on it goes back by two.
      await chain.test.revert({ id: snapshot })
      for (const to of [freshAddress(), freshAddress(), first]) {
        const { status, body } = await service.drip(to)
        expect({ status, body }).toMatchObject({ status: 200, body: { address: getAddress(to) } })
        expect(await chain.ethBalance(to)).toBe(ONE_ETHER)
      }
      expect(service.lines.some((line) => String(line.msg).includes('pending nonce is below one it accepted'))).toBe(true)
      expect(service.faucet.settler!.pending).toBe(0)
    } finally {
      await service.stop()
    }
  })
})

describe('a journal file that is gone', () => {
  let spool: Spool | null = null
  afterAll(() => spool?.stop())

  test('is said loudly, and the day’s counts are rebuilt from the drips the spool holds', async () => {
    const dataDir = chain.dataDir()
    const lost = [freshAddress(), freshAddress(), freshAddress()]
    // A first run writes its drips into its own journal file.
    const before = startFaucet(chain, { dataDir })
    for (const to of lost) expect((await before.drip(to)).status).toBe(200)
    await before.stop()
    const files = readdirSync(join(dataDir, JOURNAL_DIR)).filter((name) => name.startsWith('journal-')).sort()
    rmSync(join(dataDir, JOURNAL_DIR, files.at(-1)!))

    const context = testContext(`[chain]\nrpc = "${chain.anvil.rpcUrl}"\nws = "${chain.anvil.wsUrl}"\n[spool]\npollMs = 100\n`)
    spool = await startSpool(context.config, spoolWiring(context.config), context.log)
    const after = startFaucet(chain, { dataDir, spool })
    try {
      expect(after.faucet.book!.recovery.missingFiles).toBe(1)
      expect(after.lines.some((line) => line.level === 50 && String(line.msg).startsWith('quota journal files are missing'))).toBe(true)
      await waitFor(() => after.lines.some((line) => line.msg === 'quota counts raised to what the chain paid'), 'the counts raised to what the chain paid', 15_000)
      const usage = after.faucet.book!.usage()
      const paid = await chain.dripCount()
      expect(usage.allTime).toBe(paid)
      expect(usage.global).toBe(paid)
      for (const to of lost) expect(usage.addresses[to.toLowerCase()]).toBe(1)
    } finally {
      await after.stop()
    }
  }, 30_000)
})

/** A node that answers every call 150 ms late, so that a storm of drips spends a while at each step. */
function slowNode(target: string) {
  let inFlight = 0
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      inFlight++
      try {
        const body = await request.text()
        await Bun.sleep(150)
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        return new Response(await upstream.text(), { headers: { 'content-type': 'application/json' } })
      } finally {
        inFlight--
      }
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** Stops taking calls, and waits until those already taken have reached the node. */
    stop: async () => {
      server.stop(true)
      await waitFor(() => inFlight === 0, 'the calls in flight to reach the node', 5000)
    },
  }
}

/** How many lines of each type the faucet's newest journal file holds now. */
function journalLines(dataDir: string): Record<string, number> {
  const dir = join(dataDir, JOURNAL_DIR)
  const newest = readdirSync(dir).filter((name) => name.startsWith('journal-')).sort().at(-1)
  const counts: Record<string, number> = {}
  if (!newest) return counts
  for (const line of readFileSync(join(dir, newest), 'utf8').split('\n')) {
    const type = /"type":"(\w+)"/.exec(line)?.[1]
    if (type) counts[type] = (counts[type] ?? 0) + 1
  }
  return counts
}

describe('reservations a kill -9 left open', () => {
  test('are settled at the next start: a drip the chain paid stays counted, one it did not is released', async () => {
    const dataDir = chain.dataDir()
    const node = slowNode(chain.anvil.rpcUrl)
    const configFile = join(dataDir, 'stack.toml')
    writeFileSync(configFile, `[chain]\nrpc = "${node.url}"\nws = "${chain.anvil.wsUrl}"\n[data]\ndir = "${dataDir}"\n[faucet]\ntrustedProxyHops = 1\nport = 0\n`)
    const paidBefore = await chain.dripCount()
    const child = Bun.spawn([process.execPath, join(FIXTURES, 'faucetProcess.ts'), configFile], {
      stdout: 'pipe',
      stderr: 'inherit',
      env: { ...process.env, FAUCET_OPERATOR_KEY: DEV_OPERATOR_KEY },
    })
    try {
      const { url } = JSON.parse((await linesOf(child.stdout).next()).value as string) as { url: string }
      const storm = Array.from({ length: 40 }, () =>
        fetch(`${url}/drip`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': freshClient() },
          body: JSON.stringify({ address: freshAddress() }),
        }).catch(() => null),
      )
      // Killed while most drips are reserved and at least one is signed. On a loaded machine the
      // first signature can take seconds behind the slow node.
      await waitFor(() => {
        const lines = journalLines(dataDir)
        return (lines.reserve ?? 0) >= 30 && (lines.commit ?? 0) >= 1
      }, 'the reservations and a commit in the journal', 30_000)
      child.kill('SIGKILL')
      await Promise.all(storm)
      expect(await child.exited).not.toBe(0)
    } finally {
      // A transaction the dead faucet sent may still be on its way: it reaches the node first.
      await node.stop()
    }

    const restarted = startFaucet(chain, { dataDir })
    try {
      const { recovery } = restarted.faucet.book!
      expect(recovery.released).toBeGreaterThan(0)
      expect(recovery.unsettled).toBeGreaterThan(0)
      // A drip sent just before the kill may wait in the node's queue behind nonces that never
      // arrived: the next drips take those nonces, and the waiting ones land after them.
      for (let drips = 0; restarted.faucet.settler!.pending > 0 && drips < 10; drips++) {
        expect((await restarted.drip(freshAddress())).status).toBe(200)
        await Bun.sleep(200)
      }
      await waitFor(() => restarted.faucet.settler!.pending === 0, 'the settler to settle every drip', 30_000)
      const paid = (await chain.dripCount()) - paidBefore
      const usage = restarted.faucet.book!.usage()
      expect(usage.open).toBe(0)
      expect(usage.allTime).toBe(paid)
      expect(usage.global).toBe(paid)
    } finally {
      await restarted.stop()
    }
  }, 60_000)
})
