import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import type { Spool } from '../spool/spool.ts'
import { conventions } from '../http/conventions.ts'
import { manifestPath } from '../chain/manifest.ts'
import { createFaucet, type Faucet } from './faucet.ts'
import { forwardedForWarning } from './forwardedForWarning.ts'
import { MAX_BODY_BYTES } from './limits.ts'
import { faucetRoutes } from './routes.ts'
import { staticPage } from './staticPage.ts'

/** The faucet service as `stack` runs it: its quota counts checked against the spool's copy of the chain. */
export function createFaucetApp(context: ServiceContext, spool?: Spool) {
  return faucetApp(context, createFaucet(context, { spool }))
}

/**
 * The faucet service (spec 02) over faucet parts already built: its API at `/` and again under
 * `/api`, its page at `/`. Anything else is the JSON 404, never a 403.
 */
export function faucetApp(context: ServiceContext, faucet: Faucet) {
  const { config, log } = context
  const { host, corsOrigins, trustedProxyHops } = config.faucet
  const shared = conventions({
    service: 'faucet',
    log,
    host,
    cors: { origins: corsOrigins, methods: ['POST', 'GET', 'OPTIONS'], headers: 'content-type' },
    trustedProxyHops,
    maxBodyBytes: MAX_BODY_BYTES,
  })
  const path = manifestPath(config.dataDir)
  return new Elysia({ nativeStaticResponse: false })
    .use(shared)
    .use(forwardedForWarning(log, trustedProxyHops))
    .use(faucetRoutes(shared, faucet, path))
    .group('/api', (api) => api.use(faucetRoutes(shared, faucet, path)))
    .use(staticPage())
    .onStop(() => faucet.stop())
}
