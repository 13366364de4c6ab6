import { Elysia } from 'elysia'
import type { Conventions } from '../../http/conventions.ts'
import { readDripRequest } from '../dripRequest.ts'
import { requireDripper, type Faucet } from '../faucet.ts'
import { dripOutcome, type DripOutcome } from '../metrics.ts'

/**
 * POST /drip. `shared` are the app's conventions, which know the client of each request;
 * `counted` is told how each drip ended.
 */
export function dripRoutes(shared: Conventions, faucet: Faucet, counted: (outcome: DripOutcome) => void = () => {}) {
  return new Elysia().post(
    '/drip',
    async ({ request }) => {
      try {
        const address = await readDripRequest(request)
        const dripper = requireDripper(faucet)
        const paid = await dripper.drip(faucet.locate(), shared.client(request), address)
        counted('paid')
        return paid
      } catch (error) {
        counted(dripOutcome(error))
        throw error
      }
    },
    // The body rules (docs/faucet.md) need the raw request (length, transfer coding, type).
    { parse: 'none' },
  )
}
