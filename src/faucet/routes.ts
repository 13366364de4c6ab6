import { Elysia } from 'elysia'
import type { conventions } from '../http/conventions.ts'
import { InvalidInputError } from '../errors.ts'
import { HttpError } from '../http/errors.ts'
import { health } from '../http/health.ts'
import { parseDripAddress } from './address.ts'
import { readDripRequest } from './dripRequest.ts'
import { FaucetUnavailableError } from './errors.ts'
import { requireDripper, type Faucet } from './faucet.ts'
import { manifestResponse } from './manifestRoute.ts'
import { readStatus } from './status.ts'

/**
 * The faucet API of spec 02. `shared` is the conventions plugin the app already uses: used
 * again here it is deduplicated by Elysia, and it gives the handlers their `client`.
 */
export function faucetRoutes(shared: ReturnType<typeof conventions>, faucet: Faucet, manifestPath: string) {
  const status = async ({ query }: { query: Record<string, string | undefined> }) => {
    let address = null
    if (query.address !== undefined) {
      address = parseDripAddress(query.address)
      if (!address) throw new InvalidInputError('invalid address')
    }
    let contract
    try {
      contract = faucet.locate()
    } catch (error) {
      // Spec 02: /status answers 502 when the node is unreachable and 500 for anything else.
      if (error instanceof FaucetUnavailableError) throw new HttpError(500, error.message)
      throw error
    }
    return readStatus(faucet.reader, contract, address)
  }
  const addresses = () => manifestResponse(manifestPath)

  return new Elysia()
    .use(shared)
    .get('/health', () => health('faucet'))
    .get('/status', status)
    .get('/faucet-status', status)
    .post(
      '/drip',
      async ({ request, client }) => {
        const address = await readDripRequest(request)
        const dripper = requireDripper(faucet)
        return dripper.drip(faucet.locate(), client, address)
      },
      // The body rules of spec 02 need the raw request (length, transfer coding, type).
      { parse: 'none' },
    )
    .get('/addresses', addresses)
    .get('/op-deployment/l2-addresses.json', addresses)
}
