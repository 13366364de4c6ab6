import { Elysia } from 'elysia'
import { InvalidInputError } from '../../errors.ts'
import { HttpError } from '../../http/errors.ts'
import { parseDripAddress } from '../address.ts'
import { FaucetUnavailableError } from '../errors.ts'
import type { Faucet } from '../faucet.ts'
import { readStatus } from '../read/status.ts'

/** GET /status (and its older name /faucet-status): the status object, with `?address=` whether a drip to it would pass now. */
export function statusRoutes(faucet: Faucet) {
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
      // /status answers 502 when the node is unreachable and 500 for anything else.
      if (error instanceof FaucetUnavailableError) throw new HttpError(500, error.message)
      throw error
    }
    // The quotas are the faucet's own books, so a status says when one of them would refuse too.
    const refusal = address && faucet.book ? faucet.book.refusalFor(address) : null
    return readStatus(faucet.reader, contract, address, refusal)
  }
  return new Elysia().get('/status', status).get('/faucet-status', status)
}
