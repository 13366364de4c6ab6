import { expect } from 'bun:test'
import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Manifest } from '../../src/devnet/deploy.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import type { ExplorerTimings } from '../../src/explorer/explorer.ts'
import type { Listening } from '../../src/http/serve.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import type { Anvil } from '../helpers/anvil.ts'
import { devNode, startDevChain, type DevChain, type UnlockedSend } from '../helpers/devChain.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'
import { rpcProxy } from '../spool/helpers.ts'

export { waitFor }

export type SeededExplorer = {
  anvil: Anvil
  manifest: Manifest
  /** What the seeding made (names, launches...). */
  seed: DevChain['seed']
  /** The dev chain's typed reads and writes. */
  dev: DevChain
  spool: Spool
  explorer: Listening
  /** The spool's own way to the node, which a test may cut without touching the explorer's. */
  spoolProxy: ReturnType<typeof rpcProxy>
  url: (path: string) => string
  get: (path: string, init?: RequestInit) => Promise<Response>
  json: <T = Record<string, unknown>>(path: string, status?: number) => Promise<T>
  head: () => Promise<number>
  /** The explorer's log lines. */
  lines: Record<string, unknown>[]
  stop: () => Promise<void>
}

/**
 * A real anvil with the dev contracts and the seeded activity, a spool that has copied all of
 * it (and whose explorer streams, transfers and tally, have caught up), and the explorer over
 * both. The spool reaches the node through a proxy, so a test can hold the spool back while the
 * explorer still reaches the node. `toml` adds explorer keys; the request limit is raised so that
 * a test file's requests do not count against it (the limit has its own test).
 */
export async function seededExplorer(toml = '', timings: Partial<ExplorerTimings> = {}): Promise<SeededExplorer> {
  const dev = await startDevChain()
  const { anvil, manifest } = dev
  const spoolProxy = rpcProxy(anvil.rpcUrl)
  const context = testContext(
    `[chain]\nrpc = "${anvil.rpcUrl}"\nws = "${anvil.wsUrl}"\n[spool]\npollMs = 100\n[explorer]\nrateLimitPerMinute = 1000000000\n${toml}`,
  )
  const spoolContext = testContext(`[chain]\nrpc = "${spoolProxy.url}"\nws = "ws://127.0.0.1:9"\n[data]\ndir = "${context.config.dataDir}"\n[spool]\npollMs = 100\n`)
  const spool = await startSpool(spoolContext.config, spoolWiring(spoolContext.config), spoolContext.log)
  const explorer = serveOnFreePort(createExplorerApp(context, spool, timings), 'explorer')
  const { head } = dev
  const top = await head()
  await waitFor(() => ['explorer', 'tally', 'fees'].every((name) => spool.health().streams[name]?.cursorBlock === top), 'the spool and the explorer streams at the head', 30_000)
  const url = (path: string) => `${explorer.url}/api${path}`
  const get = (path: string, init?: RequestInit) => fetch(url(path), init)
  const json = async <T>(path: string, status = 200) => {
    const response = await get(path)
    const text = await response.text()
    if (response.status !== status) {
      const logged = context.lines.filter((line) => line.msg === 'unhandled error').map((line) => JSON.stringify(line.err).slice(0, 600))
      throw new Error(`${path}: expected ${status}, got ${response.status} ${text.slice(0, 300)} ${logged.join('\n')}`)
    }
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('content-type')).toStartWith('application/json')
    return JSON.parse(text) as T
  }
  return {
    anvil,
    manifest,
    seed: dev.seed,
    dev,
    spool,
    explorer,
    spoolProxy,
    url,
    get,
    json,
    head,
    lines: context.lines,
    stop: async () => {
      await explorer.stop()
      await spool.stop()
      spoolProxy.stop()
      await dev.stop()
    },
  }
}

/** Waits until the explorer's stats say the spool and its stream are at `block`. */
export async function statsAt(seeded: SeededExplorer, block: number): Promise<void> {
  await waitFor(async () => {
    const stats = await seeded.json<{ indexedBlock: number; derivedLag: number | null }>('/stats')
    return stats.indexedBlock >= block && stats.derivedLag === 0
  }, `stats at block ${block}`)
}

/** Every JSON number in `value` that is an amount must not be: amounts travel as decimal strings. */
export const DECIMAL = /^(0|[1-9]\d*)$/

/** Sends transactions from anvil's unlocked dev accounts, one block each, and waits for the last. */
export const send = (rpcUrl: string, txs: UnlockedSend[]): Promise<string[]> => devNode(rpcUrl).send(txs)

/** Puts all the transactions in one block: automine off, send, mine once, automine on. */
export const sendInOneBlock = (rpcUrl: string, txs: UnlockedSend[]): Promise<number> => devNode(rpcUrl).sendInOneBlock(txs)

/** Mines `count` empty blocks. */
export async function mineEmpty(rpcUrl: string, count: number): Promise<void> {
  await devNode(rpcUrl).mine(count)
}

/**
 * A copy of the repository's registry whose token list also lists `address` (with a copy of the
 * native token's logo under the address's name), for tests of what listing changes.
 */
export function registryListing(address: string, symbol: string): string {
  const root = mkdtempSync(join(tmpdir(), 'stack-registry-'))
  cpSync(join(import.meta.dir, '../../registry/testnet'), join(root, 'testnet'), { recursive: true })
  const listPath = join(root, 'testnet/tokenlist.json')
  const list = JSON.parse(readFileSync(listPath, 'utf8')) as { tokens: Array<Record<string, unknown>> }
  const native = list.tokens[0]!
  const logo = `testnet/logos/tokens/${address}.png`
  copyFileSync(join(root, `testnet/logos/tokens/${native.address}.png`), join(root, logo))
  list.tokens.push({ chainId: 78270, address, name: symbol, symbol, decimals: 0, logoURI: String(native.logoURI).replace(/[^/]+$/, `${address}.png`) })
  writeFileSync(listPath, JSON.stringify(list, null, 2))
  return root
}
