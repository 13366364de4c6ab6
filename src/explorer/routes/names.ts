import { Elysia } from 'elysia'
import type { Address } from 'viem'
import { NotFoundError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { parseAddress } from '../../eth/address.ts'
import { isRegistrableLabel, LABEL_MAX, LABEL_MIN, lookupCall, lookupResult, nameLabel, unreadRecord } from '../names.ts'
import { NAMES_MAX } from '../reverseNames.ts'
import { TOKEN_META_AGE_MS } from '../probes.ts'

/**
 * `/name/{name}`: a lookup read live from the name registry the config names
 * (`explorer.nameRegistry`), in one eth_call, never from the spool: availability and expiry move
 * with the chain's clock, not only with its logs. A trailing suffix is stripped. A label no name
 * can be (out of range, a capital after decoding, "_", a leading "-") is unknown: 404, and so is
 * every lookup with no name service configured. A label nobody registered answers
 * `available: true` with its yearly price. The registry is a live part: when it cannot be read
 * (the node away, nothing answering as a registry at the configured address) the answer is
 * still served, with the name and label and every live field null.
 */
export function nameRoutes(explorer: Explorer) {
  const registry = explorer.contracts.nameRegistry
  return new Elysia({ name: 'explorer-names' })
    .get('/name/:name', async ({ params }) => {
      const label = nameLabel(params.name)
      if (label === null) throw new NotFoundError(`a name must be ${LABEL_MIN} to ${LABEL_MAX} characters`)
      if (!registry) throw new NotFoundError('no name service is configured')
      if (!isRegistrableLabel(label)) throw new NotFoundError('no such name: a name is made of a-z, 0-9 and "-" (not first or last)')
      const results = await explorer.node.batch([lookupCall(registry, label)])
      return lookupResult(results, 0) ?? unreadRecord(label)
    })
    /**
     * `/names?address=A,B,...`: what the pages call each address, so that every address a page
     * prints can be named in one request: `names`, the name it goes by (its reverse record) or
     * null, and `labels`, its tag label (the registry's tags) or null. An entry that is not an address names
     * no record: 404, like `/address/{address}`. At most NAMES_MAX distinct addresses are named,
     * the first ones asked; the rest are left out like the rows past a clamped list's limit. With
     * no name service or the node away every name is null; the labels are still there. `pools` names
     * the exchange's pairs and pools by their tokens, kind and fee (`BX/WETH · V2`), null for any
     * other address; a page prints a tag label first, then that, then the name.
     */
    .get('/names', async ({ request }) => {
      // `address=A,B` or `address=A&address=B`, alike.
      const given = new URL(request.url).searchParams
        .getAll('address')
        .flatMap((value) => value.split(','))
        .filter((text) => text !== '')
      const parsed = given.map((text) => {
        const address = parseAddress(text.trim())
        if (!address) throw new NotFoundError(`not an address: ${text.slice(0, 64)}`)
        return address
      })
      const addresses: Address[] = [...new Set(parsed)].slice(0, NAMES_MAX)
      const { registry, probes } = explorer
      const exchange = await explorer.exchange.current()
      const [names, probed] = await Promise.all([explorer.names.names(addresses), probes.probe(exchange.unlistedTokens(addresses, registry), TOKEN_META_AGE_MS)])
      const pools = exchange.names(addresses, registry, probed)
      return {
        names: Object.fromEntries(names),
        labels: Object.fromEntries([...names.keys()].map((address) => [address, registry.labelName(address)])),
        pools: Object.fromEntries([...names.keys()].map((address) => [address, pools.get(address.toLowerCase()) ?? null])),
      }
    })
}
