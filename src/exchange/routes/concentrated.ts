import { Elysia } from 'elysia'
import type { Pool, PoolList, WithEthUsd } from '../../answers/exchange.ts'
import { NotFoundError } from '../../errors.ts'
import type { ExchangeDeps } from '../deps.ts'
import { dollars } from '../http/dollars.ts'
import { addressParam, closedParam, hexKey, invalidParameter, kindParam, limitParam, optionalAddress, pathAddressParam } from '../http/params.ts'
import { poolJson } from '../read/cl.ts'
import { tokensOf } from '../read/tokenJson.ts'

/** The concentrated routes, under `/cl/` (docs/exchange.md "Routes"). */
export function concentratedRoutes(deps: ExchangeDeps) {
  const { cl, tokens, addresses, answers } = deps
  const price = async () => dollars(await deps.ethUsd())

  return new Elysia({ prefix: '/cl' })
    .get('/pools', () =>
      answers.answer('cl:pools', async (): Promise<PoolList> => {
        const rows = await cl.pools()
        const [metas, usd] = await Promise.all([tokens.many(tokensOf(rows)), price()])
        return { pools: rows.map((row) => poolJson(row, metas, addresses.weth)), ethUsd: usd }
      }),
    )
    .get('/pool/:address', ({ params }) => {
      const pool = pathAddressParam(params.address)
      return answers.answer(`cl:pool:${hexKey(pool)}`, async (): Promise<Pool & WithEthUsd> => {
        const row = await cl.pool(pool)
        if (!row) throw new NotFoundError('unknown pool')
        const [metas, usd] = await Promise.all([tokens.many(tokensOf([row])), price()])
        return { ...poolJson(row, metas, addresses.weth), ethUsd: usd }
      })
    })
    .get('/tiers', () => answers.answer('cl:tiers', async () => ({ tiers: await cl.tiers() })))
    .get('/positions', ({ query }) => {
      const filter = { pool: optionalAddress(query.pool), owner: optionalAddress(query.owner), closed: closedParam(query.closed), limit: limitParam(query.limit) }
      const key = `cl:positions:${hexKey(filter.pool)}:${hexKey(filter.owner)}:${filter.closed}:${filter.limit}`
      return answers.answer(key, async () => ({ positions: await cl.positions(filter) }))
    })
    .get('/ticks', ({ query }) => {
      if (query.pool === undefined) throw invalidParameter()
      const pool = addressParam(query.pool)
      return answers.answer(`cl:ticks:${hexKey(pool)}`, async () => {
        // The ticks are the pool's own, like its row: an unknown pool is the 404 /cl/pool answers.
        if (!(await cl.pool(pool))) throw new NotFoundError('unknown pool')
        return { ticks: await cl.ticks(pool) }
      })
    })
    .get('/swaps', ({ query }) => {
      const filter = { pool: optionalAddress(query.pool), sender: optionalAddress(query.sender), limit: limitParam(query.limit) }
      return answers.answer(`cl:swaps:${hexKey(filter.pool)}:${hexKey(filter.sender)}:${filter.limit}`, async () => ({ swaps: await cl.swaps(filter) }))
    })
    .get('/events', ({ query }) => {
      const filter = { pool: optionalAddress(query.pool), owner: optionalAddress(query.owner), kind: kindParam(query.kind), limit: limitParam(query.limit) }
      const key = `cl:events:${hexKey(filter.pool)}:${hexKey(filter.owner)}:${filter.kind}:${filter.limit}`
      return answers.answer(key, async () => ({ events: await cl.events(filter) }))
    })
}
