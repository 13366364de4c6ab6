import { Elysia } from 'elysia'
import type { Conventions } from '../../http/conventions.ts'
import { readDripRequest } from '../dripRequest.ts'
import { requireDripper, type Faucet } from '../faucet.ts'

/** POST /drip. `shared` are the app's conventions, which know the client of each request. */
export function dripRoutes(shared: Conventions, faucet: Faucet) {
  return new Elysia().post(
    '/drip',
    async ({ request }) => {
      const address = await readDripRequest(request)
      const dripper = requireDripper(faucet)
      return dripper.drip(faucet.locate(), shared.client(request), address)
    },
    // The body rules of spec 02 need the raw request (length, transfer coding, type).
    { parse: 'none' },
  )
}
