import { Elysia } from 'elysia'
import { NotFoundError } from '../../errors.ts'
import type { ExchangeDeps } from '../deps.ts'
import { dollars } from '../http/dollars.ts'
import { addressParam, closedParam, invalidParameter, kindParam, limitParam, optionalAddress } from '../http/params.ts'
import { poolJson } from '../read/cl.ts'
import { tokensOf } from '../read/tokenJson.ts'

/** The concentrated routes, under `/cl/` (paths from DESIGN). */
export function concentratedRoutes(deps: ExchangeDeps) {
  const { cl, tokens, addresses } = deps
  const price = async () => dollars(await deps.ethUsd())

  return new Elysia({ prefix: '/cl' })
    .get('/pools', async () => {
      const rows = cl.pools()
      const [metas, usd] = await Promise.all([tokens.many(tokensOf(rows)), price()])
      return { pools: rows.map((row) => poolJson(row, metas, addresses.weth)), ethUsd: usd }
    })
    .get('/pool/:address', async ({ params }) => {
      const row = cl.pool(addressParam(params.address))
      if (!row) throw new NotFoundError('unknown pool')
      const [metas, usd] = await Promise.all([tokens.many(tokensOf([row])), price()])
      return { ...poolJson(row, metas, addresses.weth), ethUsd: usd }
    })
    .get('/tiers', () => ({ tiers: cl.tiers() }))
    .get('/positions', ({ query }) => ({
      positions: cl.positions({
        pool: optionalAddress(query.pool),
        owner: optionalAddress(query.owner),
        closed: closedParam(query.closed),
        limit: limitParam(query.limit),
      }),
    }))
    .get('/ticks', ({ query }) => {
      if (query.pool === undefined) throw invalidParameter()
      return { ticks: cl.ticks(addressParam(query.pool)) }
    })
    .get('/swaps', ({ query }) => ({
      swaps: cl.swaps({ pool: optionalAddress(query.pool), sender: optionalAddress(query.sender), limit: limitParam(query.limit) }),
    }))
    .get('/events', ({ query }) => ({
      events: cl.events({
        pool: optionalAddress(query.pool),
        owner: optionalAddress(query.owner),
        kind: kindParam(query.kind),
        limit: limitParam(query.limit),
      }),
    }))
}
