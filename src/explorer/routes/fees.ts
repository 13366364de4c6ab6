import { Elysia } from 'elysia'

/**
 * Spec 03 "/fees": `{deployed:false}` and nothing else when the fee layer is absent. This stack's
 * chain has no fee layer (the dev chain deploys none and the config names none), so that is the
 * answer; the figures of a deployed fee layer would be read from its logs in the spool.
 */
export function feeRoutes() {
  return new Elysia({ name: 'explorer-fees' }).get('/fees', () => ({ deployed: false }))
}
