import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { health } from '../http/health.ts'
import { createRegistryCopy, registryRoutes } from '../registry/routes.ts'

/** Spec 03 "Limits": request body. There is nothing to POST; larger declared bodies answer 413. */
export const EXPLORER_MAX_BODY = 600_000

export function createExplorerApp(context: ServiceContext) {
  const { config, log } = context
  const { host, corsOrigins, trustedProxyHops } = config.explorer
  const registry = createRegistryCopy(context)
  return new Elysia({ prefix: '/api', nativeStaticResponse: false })
    .use(
      conventions({
        service: 'explorer',
        log,
        host,
        cors: { origins: corsOrigins, methods: ['GET', 'OPTIONS'] },
        trustedProxyHops,
        readOnly: true,
        maxBodyBytes: EXPLORER_MAX_BODY,
      }),
    )
    .get('/health', () => health('explorer'))
    .use(registryRoutes(registry, config.registry.refreshSeconds))
}
