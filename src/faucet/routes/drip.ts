import { Elysia } from 'elysia'
import type { conventions } from '../../http/conventions.ts'
import { readDripRequest } from '../dripRequest.ts'
import { requireDripper, type Faucet } from '../faucet.ts'

/**
 * POST /drip. `shared` is the conventions plugin the app already uses: used again here it is
 * deduplicated by Elysia, and it gives the handler its `client`.
 */
export function dripRoutes(shared: ReturnType<typeof conventions>, faucet: Faucet) {
  return new Elysia().use(shared).post(
    '/drip',
    async ({ request, client }) => {
      const address = await readDripRequest(request)
      const dripper = requireDripper(faucet)
      return dripper.drip(faucet.locate(), client, address)
    },
    // The body rules of spec 02 need the raw request (length, transfer coding, type).
    { parse: 'none' },
  )
}
