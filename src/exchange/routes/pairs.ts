import { Elysia } from 'elysia'
import type { PairList, PairTokens, Pair, WithEthUsd } from '../../answers/exchange.ts'
import { NotFoundError } from '../../errors.ts'
import type { ExchangeDeps } from '../deps.ts'
import { dollars } from '../http/dollars.ts'
import { hexKey, limitParam, optionalAddress, pathAddressParam } from '../http/params.ts'
import { checksum } from '../../eth/address.ts'
import { tokensOf } from '../read/tokenJson.ts'
import { pairJson } from '../read/v2.ts'

/** The constant-product routes, at the bare paths (docs/exchange.md "Routes"). */
export function pairRoutes(deps: ExchangeDeps) {
  const { v2, tokens, listed, answers } = deps
  const price = async () => dollars(await deps.ethUsd())

  return new Elysia()
    .get('/pools', () =>
      answers.answer('pools', async (): Promise<PairList> => {
        const rows = await v2.pairs()
        const [metas, usd] = await Promise.all([tokens.many(tokensOf(rows)), price()])
        return { pools: rows.map((row) => pairJson(row, metas)), ethUsd: usd }
      }),
    )
    .get('/pool/:pair', ({ params }) => {
      const pair = pathAddressParam(params.pair)
      return answers.answer(`pool:${hexKey(pair)}`, async (): Promise<Pair & WithEthUsd> => {
        // A keyed lookup: the row is the one /pools lists, without reading the others.
        const row = await v2.pair(pair)
        if (!row) throw new NotFoundError('unknown pool')
        const [metas, usd] = await Promise.all([tokens.many(tokensOf([row])), price()])
        return { ...pairJson(row, metas), ethUsd: usd }
      })
    })
    .get('/tokens', () => answers.answer('tokens', tokenList))
    .get('/swaps', ({ query }) => {
      const filter = { pair: optionalAddress(query.pair), sender: optionalAddress(query.sender), limit: limitParam(query.limit) }
      return answers.answer(`swaps:${hexKey(filter.pair)}:${hexKey(filter.sender)}:${filter.limit}`, async () => ({ swaps: await v2.swaps(filter) }))
    })
    .get('/events', ({ query }) => {
      const filter = { pair: optionalAddress(query.pair), limit: limitParam(query.limit) }
      return answers.answer(`events:${hexKey(filter.pair)}:${filter.limit}`, async () => ({ events: await v2.events(filter) }))
    })

  async function tokenList(): Promise<PairTokens> {
    const rows = await v2.tokens()
    const metas = await tokens.many(rows.map((row) => checksum(row.token)))
    return {
      tokens: rows.map((row) => {
        const meta = metas.get(checksum(row.token).toLowerCase())!
        // A launched token has no verified mark until the registry lists it (docs/registry.md).
        return { address: meta.address, symbol: meta.symbol, decimals: meta.decimals, verified: listed.has(meta.address), pools: row.pools }
      }),
    }
  }
}
