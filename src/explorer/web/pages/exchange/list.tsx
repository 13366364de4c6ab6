import { count } from '../../format.ts'
import { Failure, Loading, Section } from '../../ui.tsx'
import { CounterCards, ListOf, feePercent, pairName, pairPrice, symbolOf, tokenAmount, useExchange, } from './shared.tsx'
import type { Counters, PairList, PoolList } from '../../../../answers/exchange.ts'

// The exchange at a glance: its counters, its constant-product pairs and its concentrated pools.

export function ExchangePage() {
  const stats = useExchange<Counters>('/stats')
  const pairs = useExchange<PairList>('/pools')
  const pools = useExchange<PoolList>('/cl/pools')
  return (
    <>
      <h1>Exchange</h1>
      {stats.error && !stats.data ? <Failure error={stats.error} what="exchange counters" /> : stats.data ? <CounterCards counters={stats.data} /> : <Loading what="the exchange" />}
      <Section title="Constant-product pairs" id="exchange-pairs">
        <ListOf loaded={pairs} what="pairs" empty={(data) => data.pools.length === 0}>
          {(data) => (
            <div class="scroll">
              <table class="dense">
                <thead>
                  <tr>
                    <th>Pair</th>
                    <th class="number">Reserve 0</th>
                    <th class="number">Reserve 1</th>
                    <th class="number">Price of token 0</th>
                    <th class="number">Swaps</th>
                  </tr>
                </thead>
                <tbody>
                  {data.pools.map((pair) => {
                    const price = pairPrice(pair.reserve0, pair.reserve1, pair.token0, pair.token1)
                    return (
                      <tr key={pair.pair} data-pair={pair.pair}>
                        <td>
                          <a href={`/exchange/pair/${pair.pair}`} title={pair.pair}>
                            {pairName(pair)}
                          </a>
                        </td>
                        <td class="number">{tokenAmount(pair.reserve0, pair.token0)}</td>
                        <td class="number">{tokenAmount(pair.reserve1, pair.token1)}</td>
                        <td class="number">{price === null ? '–' : `${price} ${symbolOf(pair.token1)}`}</td>
                        <td class="number">{count(pair.swapCount)}</td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
          )}
        </ListOf>
        <p class="muted small note">Prices are worked out here from the reserves: the index does not publish them.</p>
      </Section>
      <Section title="Concentrated pools" id="exchange-pools">
        <ListOf loaded={pools} what="concentrated pools" empty={(data) => data.pools.length === 0}>
          {(data) => (
            <div class="scroll">
              <table class="dense">
                <thead>
                  <tr>
                    <th>Pool</th>
                    <th class="number">Price of token 0</th>
                    <th class="number">Tick</th>
                    <th class="number">Active liquidity</th>
                    <th class="number">Balances</th>
                    <th class="number">Swaps</th>
                  </tr>
                </thead>
                <tbody>
                  {data.pools.map((pool) => (
                    <tr key={pool.pool} data-pool={pool.pool}>
                      <td>
                        <a href={`/exchange/pool/${pool.pool}`} title={pool.pool}>
                          {pairName(pool)}
                        </a>
                        <span class="badge" title="fee tier">{feePercent(pool.fee)}</span>
                      </td>
                      <td class="number">{pool.price === null ? '–' : `${pool.price} ${symbolOf(pool.token1)}`}</td>
                      <td class="number">{pool.tick === null ? <span class="muted">not initialised</span> : count(pool.tick)}</td>
                      <td class="number">{count(pool.activeLiquidity)}</td>
                      <td class="number stacked">
                        <span>{tokenAmount(pool.balance0, pool.token0)}</span>
                        <span>{tokenAmount(pool.balance1, pool.token1)}</span>
                      </td>
                      <td class="number">{count(pool.swapCount)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListOf>
      </Section>
    </>
  )
}

