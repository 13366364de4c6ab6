import { Elysia } from 'elysia'
import { InvalidInputError, NotFoundError } from '../../errors.ts'
import { parseAddress } from '../../eth/address.ts'
import { callContract, contractAnswer, contractAt } from '../contract.ts'
import type { Explorer } from '../explorer.ts'

/**
 * `/address/{address}/contract`, what the contract book knows of an address (its match, compiler
 * settings, sources, ABI and proxy; every field null when nothing), kept a few seconds like the
 * address; and `/address/{address}/call?data=0x…`, one read of a view or pure function of that
 * ABI through the node (docs/explorer.md, "A contract").
 */
export function contractRoutes(explorer: Explorer) {
  const addressOf = (text: string) => {
    const address = parseAddress(text)
    if (!address) throw new NotFoundError('not an address')
    return address
  }
  return new Elysia({ name: 'explorer-contracts' })
    .get('/address/:address/contract', ({ params }) => {
      const address = addressOf(params.address)
      return explorer.answers.answer(`contract:${address}`, async () => contractAnswer(address, await contractAt(explorer.book, address)))
    })
    .get('/address/:address/call', async ({ params, query }) => {
      const address = addressOf(params.address)
      let from = null
      if (typeof query.from === 'string' && query.from !== '') {
        from = parseAddress(query.from)
        if (!from) throw new InvalidInputError('from must be an address')
      }
      return callContract(explorer.callNode, await contractAt(explorer.book, address), address, { data: query.data, from }, explorer.callGasCap)
    })
}
