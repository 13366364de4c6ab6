import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { ServiceMetrics } from '../http/metrics.ts'
import type { Spool } from '../spool/spool.ts'
import { exchangeDeps, type ExchangeDeps } from './deps.ts'
import { concentratedRoutes } from './routes/concentrated.ts'
import { healthRoutes } from './routes/health.ts'
import { pairRoutes } from './routes/pairs.ts'
import { statsRoutes } from './routes/stats.ts'

/** Every route of the exchange index, once; mounted at `/` and again under `/api/` (docs/exchange.md). */
function routes(deps: ExchangeDeps) {
  return new Elysia().use(healthRoutes(deps.index, deps.spoolHealth, deps.databaseHealth)).use(pairRoutes(deps)).use(statsRoutes(deps)).use(concentratedRoutes(deps))
}

export function createExchangeApp({ config, log, chain, sharedMetrics }: ServiceContext, spool: Spool) {
  // One set of queries and one token cache for both mounts.
  const deps = exchangeDeps(config, chain, spool)
  return new Elysia({ nativeStaticResponse: false })
    // No CORS header at all and no OPTIONS handler; it implements no verb but GET, so HEAD is
    // the 404 as any other (docs/http.md "HTTP conventions"). Its streams' lag is among the spool's
    // metrics, which every service shows.
    .use(conventions({ service: 'exchange', log, host: config.exchange.host, cors: null, trustedProxyHops: 0, getOnly: true, metrics: new ServiceMetrics('exchange', sharedMetrics) }).plugin)
    .use(routes(deps))
    .group('/api', (api) => api.use(routes(deps)))
}
