import { Elysia } from 'elysia'
import type { Logger } from '../log.ts'

/**
 * With `trustedProxyHops = 0` the socket's peer is the client, so a proxy in front that adds
 * X-Forwarded-For collapses every visitor into its one quota bucket. Says so once, at the first
 * such request, instead of silently counting everyone as one.
 */
export function forwardedForWarning(log: Logger, trustedProxyHops: number) {
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
