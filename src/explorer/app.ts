import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { health } from '../http/health.ts'
import { fromThisMachine } from '../http/thisMachine.ts'
import { ServiceMetrics } from '../http/metrics.ts'
import { createRegistryCopy, registryRoutes } from '../registry/routes.ts'
import { databaseHealth, type Spool } from '../spool/spool.ts'
import { createExplorer, type ExplorerTimings } from './explorer.ts'
import { registerExplorerMetrics } from './metrics.ts'
import { accountRoutes } from './routes/accounts.ts'
import { blockRoutes } from './routes/blocks.ts'
import { contractRoutes } from './routes/contracts.ts'
import { EXCHANGE_PROXY_PREFIX, exchangeProxy } from './routes/exchangeProxy.ts'
import { exportRoutes } from './routes/exports.ts'
import { feeRoutes } from './routes/fees.ts'
import { listRoutes } from './routes/lists.ts'
import { miniRoutes } from './routes/minis.ts'
import { nameRoutes } from './routes/names.ts'
import { nftRoutes } from './routes/nfts.ts'
import { positionRoutes } from './routes/positions.ts'
import { operatorRoutes } from './routes/operator.ts'
import { overviewRoutes } from './routes/overview.ts'
import { pageRoutes, publicRpc } from './routes/pages.ts'
import { searchRoutes } from './routes/search.ts'
import { statsRoutes } from './routes/stats.ts'
import { tokenRoutes } from './routes/tokens.ts'
import { txRoutes } from './routes/txs.ts'

/** The request body: there is nothing to POST; larger declared bodies answer 413. */
export const EXPLORER_MAX_BODY = 600_000

/**
 * The explorer (docs/explorer.md) under /api: the archive read from the spool, live parts read from the
 * node, and the registry routes (docs/registry.md); its pages for people beside it (routes/pages.ts).
 * `timings` shortens the caches in tests.
 */
export function createExplorerApp(context: ServiceContext, spool: Spool, timings: Partial<ExplorerTimings> = {}) {
  const { config, log } = context
  const { host, corsOrigins, trustedProxyHops, rateLimitPerMinute } = config.explorer
  const registry = createRegistryCopy(context)
  const explorer = createExplorer(context, spool, registry, timings)
  const metrics = new ServiceMetrics('explorer', context.sharedMetrics)
  const pages = pageRoutes(context.peers, { id: config.chain.chainId, rpc: publicRpc(config.chain.rpc) }, () => {
    // The stats the background tick computed last (at most a second old): without them, the
    // script reads the stats itself.
    const clock = explorer.stats.latest()?.miniBlockHeadTimestamp_us
    return typeof clock === 'number' ? clock : null
  })
  registerExplorerMetrics(metrics, explorer.live)
  const shared = conventions({
    service: 'explorer',
    log,
    host,
    cors: { origins: corsOrigins, methods: ['GET', 'OPTIONS'], headers: 'Content-Type' },
    trustedProxyHops,
    readOnly: true,
    maxBodyBytes: EXPLORER_MAX_BODY,
    rateLimitPerMinute,
    // The client's minute is the API's: a page's shell, script and style are not counted, its API
    // calls are; nor is the operator's route, which answers only requests from this machine.
    // An export of a list (a .csv beside the pages) reads as much as many API calls, and counts.
    rateLimited: (path) => path === '/api' || path.startsWith('/api/') || path.startsWith(`${EXCHANGE_PROXY_PREFIX}/`) || path.endsWith('.csv'),
    metrics,
    notFoundPage: pages.notFoundPage,
  })
  const api = new Elysia({ prefix: '/api' })
    .onStart(() => explorer.start())
    .onStop(() => explorer.stop())
    .get('/health', async () => ({ ...health('explorer'), ...(await databaseHealth(spool)) }))
    .use(registryRoutes(registry, config.registry.refreshSeconds))
    .use(statsRoutes(explorer))
    .use(overviewRoutes(explorer))
    .use(blockRoutes(explorer))
    .use(miniRoutes(explorer))
    .use(txRoutes(explorer))
    .use(accountRoutes(explorer))
    .use(listRoutes(explorer))
    .use(contractRoutes(explorer))
    .use(tokenRoutes(explorer))
    .use(nftRoutes(explorer))
    .use(positionRoutes(explorer))
    .use(feeRoutes(explorer))
    .use(nameRoutes(explorer))
    .use(searchRoutes(explorer))
  // Without a forwarding header the conventions' client is the socket's peer (see fromThisMachine).
  const local = (request: Request) => fromThisMachine(request.headers, shared.client(request), host)
  return new Elysia({ nativeStaticResponse: false }).use(shared.plugin).use(pages.app).use(exchangeProxy(context.peers)).use(exportRoutes(explorer)).use(operatorRoutes(explorer, local)).use(api)
}
