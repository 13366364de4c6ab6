import { Elysia } from 'elysia'
import { manifestPath } from '../chain/manifest.ts'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { ServiceMetrics } from '../http/metrics.ts'
import type { Logger } from '../log.ts'
import type { Spool } from '../spool/spool.ts'
import { MAX_BODY_BYTES } from './dripRequest.ts'
import { createFaucet, type Faucet } from './faucet.ts'
import { registerFaucetMetrics } from './metrics.ts'
import { addressesRoutes } from './routes/addresses.ts'
import { dripRoutes } from './routes/drip.ts'
import { healthRoutes } from './routes/health.ts'
import { pageRoutes } from './routes/page.ts'
import { statusRoutes } from './routes/status.ts'

/** The faucet service as `stack` runs it: its quota counts checked against the spool's copy of the chain. */
export function createFaucetApp(context: ServiceContext, spool?: Spool) {
  return faucetApp(context, createFaucet(context, { spool }))
}

/**
 * The faucet service (docs/faucet.md) over faucet parts already built: its API at `/` and again under
 * `/api`, its page at `/`. Anything else is the JSON 404, never a 403, even with a refused Origin.
 */
export function faucetApp(context: ServiceContext, faucet: Faucet) {
  const { config, log } = context
  const { host, corsOrigins, trustedProxyHops } = config.faucet
  const metrics = new ServiceMetrics('faucet', context.sharedMetrics)
  const counted = registerFaucetMetrics(metrics, faucet)
  const shared = conventions({
    service: 'faucet',
    log,
    host,
    cors: { origins: corsOrigins, methods: ['POST', 'GET', 'OPTIONS'], headers: 'content-type' },
    trustedProxyHops,
    maxBodyBytes: MAX_BODY_BYTES,
    // A path that is neither the API nor the page is 404, never 403, whatever the Origin.
    originRefusedOnRoutesOnly: true,
    metrics,
  })
  const manifest = manifestPath(config.dataDir)
  /** The faucet's API (docs/faucet.md), once; mounted at `/` and again under `/api`. */
  const api = () =>
    new Elysia().use(healthRoutes()).use(statusRoutes(faucet)).use(dripRoutes(shared, faucet, counted)).use(addressesRoutes(manifest))
  return new Elysia({ nativeStaticResponse: false })
    .use(shared.plugin)
    .use(forwardedForWarning(log, trustedProxyHops))
    .use(api())
    .group('/api', (group) => group.use(api()))
    .use(pageRoutes())
    .onStop(() => faucet.stop())
}

/**
 * With `trustedProxyHops = 0` the socket's peer is the client, so a proxy in front that adds
 * X-Forwarded-For collapses every visitor into its one quota bucket. Says so once, at the first
 * such request, instead of silently counting everyone as one.
 */
function forwardedForWarning(log: Logger, trustedProxyHops: number) {
  let warned = trustedProxyHops > 0
  return new Elysia({ name: 'forwarded-for-warning' }).onRequest(({ request }) => {
    if (warned || request.headers.get('x-forwarded-for') === null) return
    warned = true
    log.warn(
      { service: 'faucet' },
      'requests carry X-Forwarded-For but faucet.trustedProxyHops is 0: every caller behind the proxy shares one quota; set trustedProxyHops to the number of proxies in front',
    )
  })
}
