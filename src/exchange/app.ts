import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import type { Spool } from '../spool/spool.ts'

/** The routes of the exchange index, mounted at `/` and again under `/api/` (DESIGN). */
function routes(spool: Spool) {
  return new Elysia()
    // Spec 02 "Health object": the first three keys describe the constant-product stream.
    .get('/health', () => {
      const health = spool.health()
      const stream = (name: string) => health.streams[name] ?? null
      const v2 = stream('v2')
      return {
        cursorBlock: v2?.cursorBlock ?? null,
        lagBlocks: v2?.lagBlocks ?? null,
        updatedAt: v2?.updatedAt ?? null,
        spoolHeadBlock: health.spoolHeadBlock,
        streams: { v2, cl: stream('cl') },
      }
    })
}

export function createExchangeApp({ config, log }: ServiceContext, spool: Spool) {
  return new Elysia({ nativeStaticResponse: false })
    // Spec 02 "Authentication": no CORS header at all and no OPTIONS handler; only GET exists.
    .use(conventions({ service: 'exchange', log, host: config.exchange.host, cors: null, trustedProxyHops: 0 }))
    .use(routes(spool))
    .group('/api', (api) => api.use(routes(spool)))
}
