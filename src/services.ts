import { createArcadeApp } from './arcade/app.ts'
import { arcadeSettings } from './arcade/settings.ts'
import type { Config } from './config/load.ts'
import { serviceNames, type ServiceName } from './config/schema.ts'
import type { ServiceContext } from './context.ts'
import { createContractBook } from './contracts/book.ts'
import { createEtherscanApp } from './etherscan/app.ts'
import { createExchangeApp } from './exchange/app.ts'
import { createExplorerApp } from './explorer/app.ts'
import { createFaucetApp } from './faucet/app.ts'
import { collectDefaultMetrics } from 'prom-client'
import { Registry } from './http/metrics.ts'
import { listen, type Listening } from './http/serve.ts'
import { registerSpoolMetrics } from './spool/metrics.ts'
import type { Spool } from './spool/spool.ts'

const factories = {
  explorer: createExplorerApp,
  exchange: createExchangeApp,
  faucet: createFaucetApp,
  arcade: createArcadeApp,
  etherscan: createEtherscanApp,
} satisfies Record<ServiceName, (context: ServiceContext, spool: Spool) => unknown>

/**
 * The settings a service checks itself beyond the config's schema (the arcade's ABI names and
 * rooms), checked before anything starts: no dev chain is deployed, no spool is opened, for a
 * config that cannot serve.
 */
export function checkServiceSettings(config: Config): void {
  arcadeSettings(config)
}

/**
 * Builds and opens the services `names` (all of them unless told: an instance on a database may
 * serve fewer). If one cannot open its port, the ones already open are closed again before the
 * error is rethrown, so a failed start leaves no port behind.
 */
export async function startServices(context: ServiceContext, spool: Spool, names: readonly ServiceName[] = serviceNames): Promise<Listening[]> {
  const urls = new Map<ServiceName, string>()
  const withPeers: ServiceContext = {
    ...context,
    peers: { url: (name) => urls.get(name) ?? null },
    sharedMetrics: sharedMetrics(spool),
    book: context.book ?? createContractBook(spool.reader, { chain: context.chain }),
  }
  const apps = names.map((name) => [name, factories[name](withPeers, spool)] as const)
  const open: Listening[] = []
  try {
    for (const [name, app] of apps) {
      const { host, port } = context.config[name]
      const listening = listen(app, name, host, port, context.log)
      context.log.info({ service: name, url: listening.url }, 'listening')
      urls.set(name, listening.url)
      open.push(listening)
    }
  } catch (error) {
    await Promise.all(open.map((listening) => listening.stop()))
    throw error
  }
  return open
}

/**
 * The metrics of the process rather than of one service, which every service's /metrics shows
 * after its own: the spool's (its head, the node's, lags, fetches, batches, rollbacks, the
 * node's errors, each derived stream) and prom-client's process figures (CPU, memory, handles,
 * the event loop's delay).
 */
function sharedMetrics(spool: Spool): Registry {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  registerSpoolMetrics(registry, spool)
  return registry
}
