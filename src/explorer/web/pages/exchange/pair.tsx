import { useRoute } from 'preact-iso'
import type { Pair, PairEvent, PairEvents, PairSwap, PairSwaps, WithEthUsd } from '../../../../answers/exchange.ts'
import { count } from '../../format.ts'
import { addressColumn } from '../../tables.tsx'
import { AddressLink, BlockLink, Fields, Loading, Section } from '../../ui.tsx'
import { EventList, NotThisFamily, ROWS, TokenLink, inversePrice, eventPlace, kindColumn, pairName, pairPrice, sides, swapParties, symbolOf, tokenAmount, usd, useExchange } from './shared.tsx'

// One constant-product pair: its reserves and price, its swaps, its mints and burns.

export function ExchangePairPage() {
  const { params } = useRoute()
  const address = encodeURIComponent(params.address ?? '')
  const { data: pair, error } = useExchange<Pair & WithEthUsd>(`/pool/${address}`)
  const swaps = useExchange<PairSwaps>(`/swaps?pair=${address}&limit=${ROWS}`)
  const events = useExchange<PairEvents>(`/events?pair=${address}&limit=${ROWS}`)
  if (error && !pair) return <NotThisFamily error={error} what="pair" other={{ href: `/exchange/pool/${address}`, what: 'concentrated pools' }} />
  if (!pair) return <Loading what="the pair" />
  const { token0, token1 } = pair
  const price = pairPrice(pair.reserve0, pair.reserve1, token0, token1)
  const inverse = inversePrice(pair.reserve0, pair.reserve1, token0, token1)
  return (
    <>
      <p class="crumbs">
        <a href="/exchange">Exchange</a> / pair
      </p>
      <Section title={`${pairName(pair)} pair`} id="pair" main>
        <Fields
          rows={[
            ['Pair', <AddressLink address={pair.pair} full />],
            ['Tokens', <><TokenLink token={token0} /> and <TokenLink token={token1} /></>],
            ['Reserves', <span id="pair-reserves">{tokenAmount(pair.reserve0, token0)} and {tokenAmount(pair.reserve1, token1)}</span>],
            ['Price', price === null ? '–' : <span id="pair-price">1 {symbolOf(token0)} = {price} {symbolOf(token1)}<span class="muted"> · 1 {symbolOf(token1)} = {inverse} {symbolOf(token0)}</span></span>],
            ['Reserves read at', pair.reservesBlock === null ? '–' : <>block <BlockLink number={pair.reservesBlock} /></>],
            ['Swaps', <span id="pair-swap-count">{count(pair.swapCount)}</span>],
            ['Mints / burns', `${count(pair.mintCount)} / ${count(pair.burnCount)}`],
            ['Paid in, all time', `${tokenAmount(pair.volume0, token0)} and ${tokenAmount(pair.volume1, token1)}`],
            ['Created', <>block <BlockLink number={pair.createdBlock} /></>],
            ['ETH price', usd(pair.ethUsd)],
          ]}
        />
      </Section>
      <Section title="Swaps" id="pair-swaps">
        <EventList
          loaded={swaps}
          what="swaps"
          rows={(data) => data.swaps}
          columns={[
            ...eventPlace<PairSwap>(),
            ...swapParties<PairSwap>(),
            { head: 'Paid in', number: true, cell: (swap) => sides(swap.amount0In, swap.amount1In, token0, token1) },
            { head: 'Paid out', number: true, cell: (swap) => sides(swap.amount0Out, swap.amount1Out, token0, token1) },
          ]}
        />
      </Section>
      <Section title="Liquidity added and removed" id="pair-events">
        <EventList
          loaded={events}
          what="mints or burns"
          rows={(data) => data.events}
          columns={[
            kindColumn<PairEvent>(),
            ...eventPlace<PairEvent>(),
            addressColumn<PairEvent>('Sender', (event) => event.sender),
            { head: symbolOf(token0), number: true, cell: (event) => tokenAmount(event.amount0, token0) },
            { head: symbolOf(token1), number: true, cell: (event) => tokenAmount(event.amount1, token1) },
          ]}
        />
      </Section>
    </>
  )
}

