import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { HttpError } from '../http/errors.ts'
import { health } from '../http/health.ts'

function routes(hasOperatorKey: boolean) {
  return new Elysia()
    .get('/health', () => health('faucet'))
    // The status object needs the faucet contract, which the dev chain deploys; until one is
    // configured the faucet cannot say what it would pay.
    .get('/status', () => {
      if (!hasOperatorKey) throw new HttpError(503, 'faucet disabled: FAUCET_OPERATOR_KEY is not set')
      throw new HttpError(503, 'faucet not deployed: no faucet contract is configured')
    })
}

export function createFaucetApp({ config, log }: ServiceContext) {
  const { host, corsOrigins, trustedProxyHops } = config.faucet
  return new Elysia({ nativeStaticResponse: false })
    .use(
      conventions({
        service: 'faucet',
        log,
        host,
        cors: { origins: corsOrigins, methods: ['POST', 'GET', 'OPTIONS'] },
        trustedProxyHops,
      }),
    )
    .use(routes(config.secrets.faucetKey !== null))
    .group('/api', (api) => api.use(routes(config.secrets.faucetKey !== null)))
}
