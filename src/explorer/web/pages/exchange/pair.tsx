import { useRoute } from 'preact-iso'
import { count } from '../../format.ts'
import { AddressLink, BlockLink, Fields, Loading, Section, TxLink } from '../../ui.tsx'
import { ListOf, NotThisFamily, ROWS, TokenLink, inversePrice, pairName, pairPrice, sides, symbolOf, tokenAmount, usd, useExchange } from './shared.tsx'
import type { Pair, PairEvents, PairSwaps, WithEthUsd } from '../../../../answers/exchange.ts'

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
      <Section title={`${pairName(pair)} pair`} id="pair">
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
        <ListOf loaded={swaps} what="swaps" empty={(data) => data.swaps.length === 0}>
          {(data) => (
            <div class="scroll">
              <table class="dense">
                <thead>
                  <tr>
                    <th>Transaction</th>
                    <th>Block</th>
                    <th>Sender</th>
                    <th>Recipient</th>
                    <th class="number">Paid in</th>
                    <th class="number">Paid out</th>
                  </tr>
                </thead>
                <tbody>
                  {data.swaps.map((swap) => (
                    <tr key={`${swap.txHash}:${swap.logIndex}`}>
                      <td>
                        <TxLink hash={swap.txHash} />
                      </td>
                      <td>
                        <BlockLink number={swap.block} />
                      </td>
                      <td>
                        <AddressLink address={swap.sender} />
                      </td>
                      <td>
                        <AddressLink address={swap.recipient} />
                      </td>
                      <td class="number">{sides(swap.amount0In, swap.amount1In, token0, token1)}</td>
                      <td class="number">{sides(swap.amount0Out, swap.amount1Out, token0, token1)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListOf>
      </Section>
      <Section title="Liquidity added and removed" id="pair-events">
        <ListOf loaded={events} what="mints or burns" empty={(data) => data.events.length === 0}>
          {(data) => (
            <div class="scroll">
              <table class="dense">
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Transaction</th>
                    <th>Block</th>
                    <th>Sender</th>
                    <th class="number">{symbolOf(token0)}</th>
                    <th class="number">{symbolOf(token1)}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.events.map((event) => (
                    <tr key={`${event.txHash}:${event.logIndex}`}>
                      <td>
                        <span class={`badge kind-${event.kind}`}>{event.kind}</span>
                      </td>
                      <td>
                        <TxLink hash={event.txHash} />
                      </td>
                      <td>
                        <BlockLink number={event.block} />
                      </td>
                      <td>
                        <AddressLink address={event.sender} />
                      </td>
                      <td class="number">{tokenAmount(event.amount0, token0)}</td>
                      <td class="number">{tokenAmount(event.amount1, token1)}</td>
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

