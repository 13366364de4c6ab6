import type { Database } from 'bun:sqlite'
import { createChain, type Chain } from '../../src/chain/client.ts'
import type { Config } from '../../src/config/load.ts'
import type { Manifest } from '../../src/devnet/deploy.ts'
import { createExchangeApp } from '../../src/exchange/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import { silentLogger } from '../../src/log.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import type { Anvil } from '../helpers/anvil.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { serveOnFreePort } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'
import { spoolConfig } from '../spool/helpers.ts'

/** The exchange index over a seeded dev chain: anvil, the spool (its worker running both streams) and the app. */
export type IndexedChain = {
  /** The seeded dev chain, with its typed reads and writes. */
  dev: DevChain
  anvil: Anvil
  manifest: Manifest
  config: Config
  spool: Spool
  chain: Chain
  app: Listening
  /** Waits until both streams stand at the node's head; returns that block. */
  caughtUp: () => Promise<number>
  /** GET a path of the app: status and parsed body. */
  get: <T = Record<string, unknown>>(path: string) => Promise<{ status: number; body: T; headers: Headers }>
  stop: () => Promise<void>
}

export async function indexedChain(): Promise<IndexedChain> {
  const dev = await startDevChain()
  const { anvil, manifest } = dev
  const config = spoolConfig(anvil.rpcUrl, anvil.wsUrl)
  const spool = await startSpool(config, spoolWiring(config), silentLogger, { fresh: true })
  const chain = createChain({ rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, chainId: 78270 })
  const app = serveOnFreePort(createExchangeApp({ config, log: silentLogger, chain }, spool), 'exchange')
  const caughtUp = async () => {
    const head = await dev.head()
    await waitFor(() => {
      const { streams } = spool.health()
      return streams.v2?.cursorBlock === head && streams.cl?.cursorBlock === head
    }, `both streams at block ${head}`)
    return head
  }
  await caughtUp()
  return {
    dev,
    anvil,
    manifest,
    config,
    spool,
    chain,
    app,
    caughtUp,
    get: async <T,>(path: string) => {
      const response = await fetch(`${app.url}${path}`)
      return { status: response.status, body: (await response.json()) as T, headers: response.headers as Headers }
    },
    stop: async () => {
      await app.stop()
      await spool.stop()
      await anvil.stop()
    },
  }
}

/** Every table the two streams write, cursor table aside. */
export const EXCHANGE_TABLES = [
  'v2_pairs', 'v2_pair_state', 'v2_pair_state_history', 'v2_swaps', 'v2_liquidity',
  'cl_tiers', 'cl_pools', 'cl_pool_state', 'cl_pool_state_history', 'cl_ticks', 'cl_ticks_history',
  'cl_positions', 'cl_positions_history', 'cl_swaps', 'cl_events',
] as const

/** The exchange tables as sorted lines of text: two spools derived alike dump alike. */
export function dumpExchange(db: Database): Record<string, string[]> {
  return Object.fromEntries(
    EXCHANGE_TABLES.map((table) => [
      table,
      db
        .query<Record<string, unknown>, []>(`SELECT * FROM ${table}`)
        .all()
        .map((row) => JSON.stringify(row, (_key, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value)))
        .sort(),
    ]),
  )
}
