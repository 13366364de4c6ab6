import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { HttpError } from '../http/errors.ts'
import { health } from '../http/health.ts'

export function createArcadeApp({ config, log }: ServiceContext) {
  const { host, corsOrigins, trustedProxyHops } = config.arcade
  return new Elysia({ prefix: '/api', nativeStaticResponse: false })
    .use(
      conventions({
        service: 'arcade',
        log,
        host,
        cors: { origins: corsOrigins, methods: ['GET', 'OPTIONS'] },
        trustedProxyHops,
        readOnly: true,
      }),
    )
    .get('/health', () => health('arcade'))
    // Spec 03 "States": not ready while the node socket is down. No node socket is open yet.
    .get('/ready', () => {
      throw new HttpError(503, 'not ready: the node socket is down')
    })
}
