import { Elysia } from 'elysia'
import type { Counters } from '../../answers/exchange.ts'
import type { ExchangeDeps } from '../deps.ts'
import { dollars, WEI_PER_ETHER } from '../http/dollars.ts'
import { wethBalance } from '../read/cl.ts'
import { wethSide } from '../read/wethSide.ts'

/**
 * The counters of `/stats` (docs/exchange.md "Routes"). valueEthWei is not value locked: it is each pair's
 * wrapped-ether reserve doubled, summed over the pairs that have one (a lower bound over a
 * subset); valueEthDenominator is what divides it into ether. The concentrated side's counters
 * are nested under `concentrated` and never added in.
 */
export function statsRoutes(deps: ExchangeDeps) {
  const { v2, cl, addresses, answers } = deps
  return new Elysia().get('/stats', () => answers.answer('stats', counters))

  async function counters(): Promise<Counters> {
    const pairs = await v2.pairs()
    let valueEthWei = 0n
    let poolsWithEth = 0
    for (const row of pairs) {
      const reserve = wethSide(row.token0, row.token1, row.reserve0, row.reserve1, addresses.weth)
      if (reserve === null) continue
      poolsWithEth++
      valueEthWei += 2n * BigInt(reserve)
    }
    const pools = await cl.pools()
    const withWeth = pools.map((row) => wethBalance(row, addresses.weth)).filter((balance): balance is string => balance !== null)
    const positions = await cl.positionCounts()
    const usd = await deps.ethUsd()
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)
    return {
      pools: pairs.length,
      swaps: sum(pairs.map((row) => row.swap_count)),
      mints: sum(pairs.map((row) => row.mint_count)),
      burns: sum(pairs.map((row) => row.burn_count)),
      poolsWithEth,
      poolsWithoutEth: pairs.length - poolsWithEth,
      valueEthWei: valueEthWei.toString(),
      valueEthDenominator: WEI_PER_ETHER.toString(),
      valueUsd: usd && poolsWithEth > 0 ? dollars({ numerator: valueEthWei * usd.numerator, denominator: WEI_PER_ETHER * usd.denominator }) : null,
      ethUsd: dollars(usd),
      concentrated: {
        pools: pools.length,
        initializedPools: pools.filter((row) => row.tick !== null).length,
        tiers: await cl.tierCount(),
        swaps: sum(pools.map((row) => row.swap_count)),
        mints: sum(pools.map((row) => row.mint_count)),
        burns: sum(pools.map((row) => row.burn_count)),
        collects: sum(pools.map((row) => row.collect_count)),
        positions: positions.open,
        closedPositions: positions.closed,
        poolsWithEth: withWeth.length,
        poolsWithoutEth: pools.length - withWeth.length,
        wethBalanceWei: withWeth.reduce((total, balance) => total + BigInt(balance), 0n).toString(),
      },
    }
  }
}
