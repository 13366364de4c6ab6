import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'

/** The routes of the exchange index, mounted at `/` and again under `/api/` (DESIGN). */
function routes() {
  return new Elysia()
    // Spec 02 "Health object". No stream has run in this process yet, so every figure is null.
    .get('/health', () => ({
      cursorBlock: null,
      lagBlocks: null,
      updatedAt: null,
      spoolHeadBlock: null,
      streams: { v2: null, cl: null },
    }))
}

export function createExchangeApp({ config, log }: ServiceContext) {
  return new Elysia({ nativeStaticResponse: false })
    // Spec 02 "Authentication": no CORS header at all and no OPTIONS handler; only GET exists.
    .use(conventions({ service: 'exchange', log, host: config.exchange.host, cors: null, trustedProxyHops: 0 }))
    .use(routes())
    .group('/api', (api) => api.use(routes()))
}
