import { Elysia } from 'elysia'
import { InvalidInputError, NodeUnreachableError, NotFoundError, UnavailableError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { isRegistrableLabel, LABEL_MAX, LABEL_MIN, lookupCall, lookupResult, nameLabel } from '../names.ts'

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
  return new Elysia({ name: 'explorer-names' }).get('/name/:name', async ({ params }) => {
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
}
