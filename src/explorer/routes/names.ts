import { Elysia } from 'elysia'
import { InvalidInputError, NodeUnreachableError, NotFoundError, UnavailableError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { parseAddress } from '../../eth/address.ts'
import { isRegistrableLabel, LABEL_MAX, LABEL_MIN, lookupCall, lookupResult, nameLabel } from '../names.ts'
import { NAMES_MAX } from '../reverseNames.ts'

/**
 * Spec 03 "/name/{name}": a lookup read live from the name registry the config names
 * (`explorer.nameRegistry`), in one eth_call, never from the spool: availability and expiry move
 * with the chain's clock, not only with its logs. A trailing suffix is stripped; a label out of
 * range is a 404, and so is every lookup with no name service configured. A label in range that
 * no name can have (a capital after decoding, "_", a leading "-") is a 400. A label nobody
 * registered answers `available: true` with its yearly price. The node away is a 502; a
 * configured address that does not answer as a name registry (no code there) a 503.
 */
export function nameRoutes(explorer: Explorer) {
  const registry = explorer.contracts.nameRegistry
  return new Elysia({ name: 'explorer-names' })
    .get('/name/:name', async ({ params }) => {
      const label = nameLabel(params.name)
      if (label === null) throw new NotFoundError(`a name must be ${LABEL_MIN} to ${LABEL_MAX} characters`)
      if (!registry) throw new NotFoundError('no name service is configured')
      if (!isRegistrableLabel(label)) throw new InvalidInputError('a name is made of a-z, 0-9 and "-" (not first or last)')
      const results = await explorer.node.batch([lookupCall(registry, label)])
      if (results === null) throw new NodeUnreachableError('the node cannot be reached')
      const record = lookupResult(results, 0)
      // The registry did not answer as one: no code at the configured address, or another contract.
      if (!record) throw new UnavailableError('the configured name registry does not answer')
      return record
    })
    /**
     * `/names?address=A,B,...`: what the pages call each address, so that every address a page
     * prints can be named in one request: `names`, the name it goes by (its reverse record) or
     * null, and `labels`, its tag label (spec 01) or null. At most NAMES_MAX addresses (more are
     * left out, like a clamped list); one that is not an address is a 400. With no name service
     * or the node away every name is null; the labels are still there.
     */
    .get('/names', async ({ request }) => {
      // `address=A,B` or `address=A&address=B`, alike.
      const given = new URL(request.url).searchParams
        .getAll('address')
        .flatMap((value) => value.split(','))
        .filter((text) => text !== '')
      const addresses = given.slice(0, NAMES_MAX).map((text) => {
        const address = parseAddress(text.trim())
        if (!address) throw new InvalidInputError(`not an address: ${text.slice(0, 64)}`)
        return address
      })
      const names = await explorer.names.names(addresses)
      return { names: Object.fromEntries(names), labels: Object.fromEntries([...names.keys()].map((address) => [address, explorer.registry.labelName(address)])) }
    })
}
