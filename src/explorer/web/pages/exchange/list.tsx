import type { Counters, Pair, PairList, Pool, PoolList } from '../../../../answers/exchange.ts'
import { DataTable } from '../../dataTable.tsx'
import { count } from '../../format.ts'
import { countColumn } from '../../tables.tsx'
import { Failure, Loading, Section, WhenLoaded } from '../../ui.tsx'
import { CounterCards, Stacked, feePercent, pairName, pairPrice, symbolOf, tokenAmount, useExchange } from './shared.tsx'

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
        <WhenLoaded loaded={pairs} what="pairs">
          {({ pools }) => (
            <DataTable
              rows={pools}
              rowKey={(pair) => pair.pair}
              row={(pair) => ({ 'data-pair': pair.pair })}
              dense
              empty="No pairs yet."
              columns={[
                {
                  head: 'Pair',
                  cell: (pair) => (
                    <a href={`/exchange/pair/${pair.pair}`} title={pair.pair}>
                      {pairName(pair)}
                    </a>
                  ),
                },
                { head: 'Reserve 0', number: true, cell: (pair) => tokenAmount(pair.reserve0, pair.token0) },
                { head: 'Reserve 1', number: true, cell: (pair) => tokenAmount(pair.reserve1, pair.token1) },
                {
                  head: 'Price of token 0',
                  number: true,
                  cell: (pair) => {
                    const price = pairPrice(pair.reserve0, pair.reserve1, pair.token0, pair.token1)
                    return price === null ? '–' : `${price} ${symbolOf(pair.token1)}`
                  },
                },
                countColumn<Pair>('Swaps', (pair) => pair.swapCount),
              ]}
            />
          )}
        </WhenLoaded>
        <p class="muted small note">Prices are worked out here from the reserves: the index does not publish them.</p>
      </Section>
      <Section title="Concentrated pools" id="exchange-pools">
        <WhenLoaded loaded={pools} what="concentrated pools">
          {({ pools }) => (
            <DataTable
              rows={pools}
              rowKey={(pool) => pool.pool}
              row={(pool) => ({ 'data-pool': pool.pool })}
              dense
              empty="No concentrated pools yet."
              columns={[
                {
                  head: 'Pool',
                  cell: (pool) => (
                    <>
                      <a href={`/exchange/pool/${pool.pool}`} title={pool.pool}>
                        {pairName(pool)}
                      </a>
                      <span class="badge" title="fee tier">
                        {feePercent(pool.fee)}
                      </span>
                    </>
                  ),
                },
                { head: 'Price of token 0', number: true, cell: (pool) => (pool.price === null ? '–' : `${pool.price} ${symbolOf(pool.token1)}`) },
                { head: 'Tick', number: true, cell: (pool) => (pool.tick === null ? <span class="muted">not initialised</span> : count(pool.tick)) },
                countColumn<Pool>('Active liquidity', (pool) => pool.activeLiquidity),
                { head: 'Balances', number: true, class: 'stacked', cell: (pool) => <Stacked token0={pool.token0} token1={pool.token1} amount0={pool.balance0} amount1={pool.balance1} /> },
                countColumn<Pool>('Swaps', (pool) => pool.swapCount),
              ]}
            />
          )}
        </WhenLoaded>
      </Section>
    </>
  )
}

