import type { ComponentChildren } from 'preact'
import { useRoute } from 'preact-iso'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { ApiError, type Loaded } from '../api.ts'
import { count, short, units } from '../format.ts'
import { AddressLink, BlockLink, Failure, Fields, Loading, Section, TxLink } from '../ui.tsx'
import '../exchange.css'

// The exchange index's pages. The index sends no CORS header (spec 02), so the pages read it
// through the explorer's proxy on this origin, /exchange-api, which asks the same path of it.

/** Where this origin passes requests on to the exchange index (routes/exchangeProxy.ts). */
export const EXCHANGE_API = '/exchange-api'

/** The answers change with each block at most: a page that stays open follows them at this pace. */
const REFRESH_MS = 10_000

/** Rows a list asks for: the index clamps to 1..500 and gives no total. */
const ROWS = 25

/** GET `/exchange-api{path}` on this origin as JSON; an answer that is not 2xx is an ApiError. */
export async function getExchangeJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(`${EXCHANGE_API}${path}`, { signal, headers: { accept: 'application/json' } })
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null
  if (!response.ok) throw new ApiError(response.status, body?.error ?? `${response.status} ${response.statusText}`)
  return body as T
}

/** useApi's twin for the exchange index: the answer of `path` (null: nothing to load), again every `refreshMs`. */
export function useExchange<T>(path: string | null, refreshMs: number | undefined = REFRESH_MS): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null })
  useEffect(() => {
    if (path === null) return
    const abort = new AbortController()
    setState({ data: null, error: null })
    const load = () =>
      getExchangeJson<T>(path, abort.signal).then(
        (data) => setState({ data, error: null }),
        (error: unknown) => {
          if (abort.signal.aborted) return
          setState((previous) => ({ data: previous.data, error: error instanceof ApiError ? error : new ApiError(0, String(error)) }))
        },
      )
    void load()
    const timer = refreshMs ? setInterval(load, refreshMs) : undefined
    return () => {
      abort.abort()
      clearInterval(timer)
    }
  }, [path, refreshMs])
  return state
}

// The shapes of the exchange index's answers the pages read (spec 02; README "The exchange index").

type Token = { address: string; symbol: string | null; decimals: number | null }

type Pair = {
  pair: string
  token0: Token
  token1: Token
  reserve0: string
  reserve1: string
  reservesBlock: number | null
  createdBlock: number
  swapCount: number
  mintCount: number
  burnCount: number
  volume0: string
  volume1: string
}

type Pool = {
  pool: string
  token0: Token
  token1: Token
  fee: number
  tickSpacing: number
  initialized: boolean
  sqrtPriceX96: string
  tick: number | null
  activeLiquidity: string
  balance0: string
  balance1: string
  price: string | null
  wethBalanceWei: string | null
  createdBlock: number
  swapCount: number
  mintCount: number
  burnCount: number
  collectCount: number
}

type Counters = {
  pools: number
  swaps: number
  mints: number
  burns: number
  poolsWithEth: number
  poolsWithoutEth: number
  valueEthWei: string
  valueEthDenominator: string
  valueUsd: string | null
  ethUsd: string | null
  concentrated: {
    pools: number
    initializedPools: number
    tiers: number
    swaps: number
    mints: number
    burns: number
    collects: number
    positions: number
    closedPositions: number
    poolsWithEth: number
    poolsWithoutEth: number
    wethBalanceWei: string
  }
}

type EventId = { txHash: string; logIndex: number; block: number }
type PairSwap = EventId & { pair: string; sender: string; recipient: string; amount0In: string; amount1In: string; amount0Out: string; amount1Out: string }
type PairEvent = EventId & { pair: string; kind: string; sender: string; recipient: string | null; amount0: string; amount1: string }
type Position = {
  pool: string
  owner: string
  tickLower: number
  tickUpper: number
  liquidity: string
  deposited0: string
  deposited1: string
  withdrawn0: string
  withdrawn1: string
  collected0: string
  collected1: string
  lastBlock: number
  closed: boolean
}
type Tick = { tick: number; liquidityGross: string; liquidityNet: string }
type PoolSwap = EventId & { pool: string; sender: string; recipient: string; amount0: string; amount1: string; sqrtPriceX96: string; liquidity: string; tick: number }
type PoolEvent = EventId & {
  pool: string
  kind: string
  owner: string
  sender: string | null
  recipient: string | null
  tickLower: number
  tickUpper: number
  liquidity: string | null
  amount0: string
  amount1: string
}

// Numbers as the pages write them: exact, from the decimal strings, with BigInt.

const symbolOf = (token: Token): string => token.symbol ?? short(token.address, 4)

/** An amount in the token's units with its symbol; raw base units when its decimals are unknown. */
export const tokenAmount = (amount: string, token: Token, fraction = 6): string =>
  token.decimals === null ? `${count(amount)} base units` : `${units(amount, token.decimals, fraction)} ${symbolOf(token)}`

/** A decimal string ("12088374.9765") with its whole part grouped, the digits as given. */
export function grouped(decimal: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(decimal)
  return match ? `${match[1]}${count(match[2]!)}${match[3] ?? ''}` : decimal
}

/** Dollars as the index gives them (a decimal string, or null when it cannot say). */
const usd = (value: string | null): string => (value === null ? '–' : `$${grouped(value)}`)

/**
 * numerator / denominator as a decimal string of `digits` significant figures, rounded half up,
 * worked out in BigInt: for the figures the index leaves to its callers (a pair's price).
 */
export function ratio(numerator: bigint, denominator: bigint, digits = 12): string {
  if (denominator === 0n) return '–'
  if (numerator === 0n) return '0'
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const at = (shift: number) => {
    const top = shift >= 0 ? n * 10n ** BigInt(shift) : n
    const bottom = shift >= 0 ? d : d * 10n ** BigInt(-shift)
    return (2n * top + bottom) / (2n * bottom)
  }
  // n / d lies between 10^(a-b-1) and 10^(a-b+1) for a digits over b: this shift gives at
  // least `digits` figures, and each step down takes one off.
  let shift = digits - (n.toString().length - d.toString().length)
  let scaled = at(shift)
  while (scaled.toString().length > digits) scaled = at(--shift)
  let text: string
  if (shift <= 0) text = count(scaled * 10n ** BigInt(-shift))
  else {
    const padded = scaled.toString().padStart(shift + 1, '0')
    const whole = padded.slice(0, -shift)
    const fraction = padded.slice(-shift).replace(/0+$/, '')
    text = `${count(whole)}${fraction ? `.${fraction}` : ''}`
  }
  return `${negative ? '-' : ''}${text}`
}

/** What one whole token0 buys in token1 at a pair's reserves; null while a side is empty or a token's decimals are unknown. */
export function pairPrice(reserve0: string, reserve1: string, token0: Token, token1: Token): string | null {
  if (token0.decimals === null || token1.decimals === null || BigInt(reserve0) === 0n || BigInt(reserve1) === 0n) return null
  return ratio(BigInt(reserve1) * 10n ** BigInt(token0.decimals), BigInt(reserve0) * 10n ** BigInt(token1.decimals))
}

/** The same price the other way round: what one whole token1 buys in token0. */
const inversePrice = (reserve0: string, reserve1: string, token0: Token, token1: Token) => pairPrice(reserve1, reserve0, token1, token0)

/** A fee in millionths as a percentage: 3000 is 0.3%. */
export const feePercent = (fee: number): string => `${units(String(fee), 4, 4)}%`

/** Wei over the index's denominator as ether, when the denominator is a power of ten (it is 10^18). */
function etherValue(wei: string, denominator: string): string {
  return /^10*$/.test(denominator) ? `${units(wei, denominator.length - 1, 4)} ETH` : `${ratio(BigInt(wei), BigInt(denominator))} ETH`
}

/** An amount of the pool's side, signed as the index gives it: paid into the pool positive, out of it negative. */
function Signed({ amount, token, fraction = 6 }: { amount: string; token: Token; fraction?: number }) {
  const sign = amount.startsWith('-') ? 'out' : amount === '0' ? 'none' : 'in'
  return <span class={`flow ${sign}`}>{sign === 'in' ? '+' : ''}{tokenAmount(amount, token, fraction)}</span>
}

// The parts of the pages.

function TokenLink({ token }: { token: Token }) {
  return (
    <a href={`/token/${token.address}`} title={token.address}>
      {symbolOf(token)}
    </a>
  )
}

const pairName = (row: { token0: Token; token1: Token }) => `${symbolOf(row.token0)} / ${symbolOf(row.token1)}`

function Stat({ id, name, children }: { id: string; name: string; children: ComponentChildren }) {
  return (
    <div id={`exchange-stat-${id}`}>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  )
}

function CounterCards({ counters }: { counters: Counters }) {
  const cl = counters.concentrated
  return (
    <>
      <dl class="stats" aria-label="exchange counters">
        <Stat id="eth-usd" name="ETH price">{usd(counters.ethUsd)}</Stat>
        <Stat id="pairs" name="Pairs">{count(counters.pools)}</Stat>
        <Stat id="swaps" name="Pair swaps">{count(counters.swaps)}</Stat>
        <Stat id="liquidity" name="Mints / burns">{`${count(counters.mints)} / ${count(counters.burns)}`}</Stat>
        <Stat id="cl-pools" name="Pools">{count(cl.pools)}</Stat>
        <Stat id="cl-swaps" name="Pool swaps">{count(cl.swaps)}</Stat>
        <Stat id="cl-positions" name="Open positions">{count(cl.positions)}</Stat>
      </dl>
      {/* Spec 02: not value locked but a lower bound over the pairs with a WETH side, and said so. */}
      <p class="value-line" id="exchange-value">
        The WETH side of {count(counters.poolsWithEth)} of the {count(counters.pools)} pairs, doubled: <strong>{etherValue(counters.valueEthWei, counters.valueEthDenominator)}</strong>
        {counters.valueUsd === null ? null : <> ({usd(counters.valueUsd)})</>}
        <span class="muted">. Pairs without WETH and the concentrated pools are not counted.</span>
      </p>
    </>
  )
}

/** A list's body: its failure, its loading line, its empty line or its rows. */
function ListOf<T>({ loaded, what, empty, children }: { loaded: Loaded<T>; what: string; empty: (data: T) => boolean; children: (data: T) => ComponentChildren }) {
  const { data, error } = loaded
  if (error && !data) return <Failure error={error} what={what} />
  if (!data) return <Loading what={what} />
  if (empty(data)) return <p class="muted">No {what} yet.</p>
  return <>{children(data)}</>
}

export function ExchangePage() {
  const stats = useExchange<Counters>('/stats')
  const pairs = useExchange<{ pools: Pair[]; ethUsd: string | null }>('/pools')
  const pools = useExchange<{ pools: Pool[]; ethUsd: string | null }>('/cl/pools')
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

/** A 404 of one family may be an address of the other: say so, with the link. */
function NotThisFamily({ error, what, other }: { error: ApiError; what: string; other: { href: string; what: string } }) {
  return (
    <section class="card missing">
      <Failure error={error} what={what} />
      {error.status === 404 ? (
        <p>
          <a href={other.href}>Look for it among the {other.what} →</a>
        </p>
      ) : null}
      <p>
        <a href="/exchange">← All pools</a>
      </p>
    </section>
  )
}

export function ExchangePairPage() {
  const { params } = useRoute()
  const address = encodeURIComponent(params.address ?? '')
  const { data: pair, error } = useExchange<Pair & { ethUsd: string | null }>(`/pool/${address}`)
  const swaps = useExchange<{ swaps: PairSwap[] }>(`/swaps?pair=${address}&limit=${ROWS}`)
  const events = useExchange<{ events: PairEvent[] }>(`/events?pair=${address}&limit=${ROWS}`)
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

/** The amounts of a swap on either side that are not zero (a swap may pay in on both). */
function sides(amount0: string, amount1: string, token0: Token, token1: Token): string {
  const shown = [amount0 !== '0' ? tokenAmount(amount0, token0) : null, amount1 !== '0' ? tokenAmount(amount1, token1) : null].filter((text) => text !== null)
  return shown.length === 0 ? '–' : shown.join(' + ')
}

/**
 * The liquidity active across tick ranges: each initialised tick adds its liquidityNet when the
 * price crosses it upwards, so the running sum from the lowest tick is the depth between it and
 * the next one. Exact in BigInt; the chart alone draws it in floats.
 */
export function activeLiquidity(ticks: Tick[]): Array<{ tick: number; liquidity: bigint }> {
  let running = 0n
  return [...ticks].sort((a, b) => a.tick - b.tick).map((tick) => ({ tick: tick.tick, liquidity: (running += BigInt(tick.liquidityNet)) }))
}

const compactFormat = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })
const scientificFormat = new Intl.NumberFormat('en-US', { notation: 'scientific', maximumFractionDigits: 2 })
/** Liquidity runs to 10^22 and more, past what compact notation names. */
const axisNumber = (value: number) => (Math.abs(value) < 1e12 ? compactFormat.format(value) : scientificFormat.format(value))

/** Active liquidity over ticks as steps, the current tick marked; uPlot on a canvas, redrawn to the card's width. */
function LiquidityChart({ ticks, current, spacing }: { ticks: Tick[]; current: number | null; spacing: number }) {
  const box = useRef<HTMLDivElement>(null)
  const steps = useMemo(() => activeLiquidity(ticks), [ticks])
  useEffect(() => {
    const element = box.current
    if (!element || steps.length === 0) return
    const style = getComputedStyle(element)
    const color = style.getPropertyValue('--accent').trim() || '#3b6fd8'
    const ink = style.getPropertyValue('--muted').trim() || '#777'
    const mark = style.getPropertyValue('--bad').trim() || '#b3261e'
    // A margin of empty ticks either side, wide enough to hold the current tick, so the ranges
    // at the ends show their edges and the current price shows even outside every range.
    const low = Math.min(steps[0]!.tick, current ?? Infinity)
    const high = Math.max(steps.at(-1)!.tick, current ?? -Infinity)
    const margin = Math.max(spacing, Math.round((high - low) * 0.05))
    const xs = [low - margin, ...steps.map((step) => step.tick), high + margin]
    const ys = [0, ...steps.map((step) => Number(step.liquidity)), 0]
    const axis = { stroke: ink, grid: { stroke: 'rgba(128,128,128,0.15)' }, ticks: { stroke: 'rgba(128,128,128,0.3)' } }
    const drawCurrent = (plot: uPlot) => {
      if (current === null) return
      const x = plot.valToPos(current, 'x', true)
      const { top, height } = plot.bbox
      const context = plot.ctx
      context.save()
      context.strokeStyle = mark
      context.lineWidth = 2 * devicePixelRatio
      context.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio])
      context.beginPath()
      context.moveTo(x, top)
      context.lineTo(x, top + height)
      context.stroke()
      context.restore()
    }
    const plot = new uPlot(
      {
        width: element.clientWidth || 300,
        height: 220,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false }, y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.08 : 1] } },
        axes: [
          { ...axis, label: 'tick', labelSize: 20, values: (_plot: uPlot, splits: number[]) => splits.map((split) => count(Math.round(split))) },
          { ...axis, size: 70, values: (_plot: uPlot, splits: number[]) => splits.map(axisNumber) },
        ],
        series: [{ label: 'tick' }, { label: 'active liquidity', stroke: color, width: 2, fill: `${color}33`, paths: uPlot.paths.stepped!({ align: 1 }), points: { show: false } }],
        hooks: { draw: [drawCurrent] },
      },
      [xs, ys],
      element,
    )
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth || 300, height: 220 }))
    resize.observe(element)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [steps, current, spacing])
  if (steps.length === 0) return <p class="muted">No liquidity in any range.</p>
  const first = steps[0]!.tick
  const last = steps.at(-1)!.tick
  return (
    <>
      <div class="chart liquidity-chart" ref={box} role="img" aria-label={`active liquidity from tick ${first} to ${last}${current === null ? '' : `, current tick ${current}`}`} />
      <p class="chart-key muted small">
        <span class="key-range" aria-hidden="true" /> active liquidity across {count(steps.length - 1)} tick {steps.length === 2 ? 'range' : 'ranges'}
        {current === null ? null : (
          <>
            {' '}
            · <span class="key-current" aria-hidden="true" /> current tick {count(current)}
          </>
        )}
      </p>
    </>
  )
}

/**
 * A position's range and, given the current tick, how it stands: closed, or in range when it
 * holds the tick (lower inclusive, upper exclusive, as the pool counts), or out of range.
 */
function Range({ lower, upper, current, closed = false }: { lower: number; upper: number; current?: number | null; closed?: boolean }) {
  const inRange = current !== undefined && current !== null && lower <= current && current < upper
  const status = current === undefined ? null : closed ? <span class="badge">closed</span> : inRange ? <span class="badge good">in range</span> : <span class="badge">out of range</span>
  return (
    <span class="range">
      {count(lower)} → {count(upper)}
      {status}
    </span>
  )
}

export function ExchangePoolPage() {
  const { params } = useRoute()
  const address = encodeURIComponent(params.address ?? '')
  const { data: pool, error } = useExchange<Pool & { ethUsd: string | null }>(`/cl/pool/${address}`)
  const ticks = useExchange<{ ticks: Tick[] }>(`/cl/ticks?pool=${address}`)
  // Closed positions too: a pool's history reads oddly with the ranges that made it missing.
  const positions = useExchange<{ positions: Position[] }>(`/cl/positions?pool=${address}&closed=1&limit=${ROWS}`)
  const swaps = useExchange<{ swaps: PoolSwap[] }>(`/cl/swaps?pool=${address}&limit=${ROWS}`)
  const events = useExchange<{ events: PoolEvent[] }>(`/cl/events?pool=${address}&limit=${ROWS}`)
  if (error && !pool) return <NotThisFamily error={error} what="concentrated pool" other={{ href: `/exchange/pair/${address}`, what: 'constant-product pairs' }} />
  if (!pool) return <Loading what="the pool" />
  const { token0, token1 } = pool
  return (
    <>
      <p class="crumbs">
        <a href="/exchange">Exchange</a> / concentrated pool
      </p>
      <Section title={`${pairName(pool)} · ${feePercent(pool.fee)}`} id="pool">
        <Fields
          rows={[
            ['Pool', <AddressLink address={pool.pool} full />],
            ['Tokens', <><TokenLink token={token0} /> and <TokenLink token={token1} /></>],
            ['Fee tier', `${feePercent(pool.fee)} (tick spacing ${count(pool.tickSpacing)})`],
            ['Price', pool.price === null ? <span class="muted">{pool.initialized ? 'unknown (a token has no decimals)' : 'not initialised'}</span> : <span id="pool-price">1 {symbolOf(token0)} = {pool.price} {symbolOf(token1)}</span>],
            ['Tick', pool.tick === null ? '–' : <span id="pool-tick">{count(pool.tick)}</span>],
            ['Active liquidity', <span id="pool-liquidity" title="depth at the current price, not the pool's size">{count(pool.activeLiquidity)}</span>],
            ['Balances', <span id="pool-balances">{tokenAmount(pool.balance0, token0)} and {tokenAmount(pool.balance1, token1)}</span>],
            ['WETH held', pool.wethBalanceWei === null ? null : `${units(pool.wethBalanceWei, 18)} WETH`],
            ['√price (Q64.96)', <span class="mono wrap small">{pool.sqrtPriceX96}</span>],
            ['Swaps', count(pool.swapCount)],
            ['Mints / burns / collects', `${count(pool.mintCount)} / ${count(pool.burnCount)} / ${count(pool.collectCount)}`],
            ['Created', <>block <BlockLink number={pool.createdBlock} /></>],
            ['ETH price', usd(pool.ethUsd)],
          ]}
        />
      </Section>
      <Section title="Liquidity by tick" id="pool-chart">
        <ListOf loaded={ticks} what="ticks" empty={() => false}>
          {(data) => <LiquidityChart ticks={data.ticks} current={pool.tick} spacing={pool.tickSpacing} />}
        </ListOf>
      </Section>
      <Section title="Positions" id="pool-positions">
        <ListOf loaded={positions} what="positions" empty={(data) => data.positions.length === 0}>
          {(data) => (
            <div class="scroll">
              <table class="dense">
                <thead>
                  <tr>
                    <th>Owner</th>
                    <th>Ticks</th>
                    <th class="number">Liquidity</th>
                    <th class="number">Deposited</th>
                    <th class="number">Withdrawn</th>
                    <th class="number">Collected</th>
                    <th>Last change</th>
                  </tr>
                </thead>
                <tbody>
                  {data.positions.map((position) => (
                    <tr key={`${position.owner}:${position.tickLower}:${position.tickUpper}`} class={position.closed ? 'closed' : undefined}>
                      <td>
                        <AddressLink address={position.owner} />
                      </td>
                      <td>
                        <Range lower={position.tickLower} upper={position.tickUpper} current={pool.tick} closed={position.closed} />
                      </td>
                      <td class="number">{count(position.liquidity)}</td>
                      <td class="number stacked">
                        <span>{tokenAmount(position.deposited0, token0, 4)}</span>
                        <span>{tokenAmount(position.deposited1, token1, 4)}</span>
                      </td>
                      <td class="number stacked">
                        <span>{tokenAmount(position.withdrawn0, token0, 4)}</span>
                        <span>{tokenAmount(position.withdrawn1, token1, 4)}</span>
                      </td>
                      <td class="number stacked">
                        <span>{tokenAmount(position.collected0, token0, 4)}</span>
                        <span>{tokenAmount(position.collected1, token1, 4)}</span>
                      </td>
                      <td>
                        <BlockLink number={position.lastBlock} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListOf>
      </Section>
      <Section title="Swaps" id="pool-swaps">
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
                    <th class="number">{symbolOf(token0)}</th>
                    <th class="number">{symbolOf(token1)}</th>
                    <th class="number">Tick after</th>
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
                      <td class="number">
                        <Signed amount={swap.amount0} token={token0} />
                      </td>
                      <td class="number">
                        <Signed amount={swap.amount1} token={token1} />
                      </td>
                      <td class="number">{count(swap.tick)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListOf>
        <p class="muted small note">Amounts from the pool's side: + paid into the pool, − paid out of it.</p>
      </Section>
      <Section title="Mints, burns and collects" id="pool-events">
        <ListOf loaded={events} what="events" empty={(data) => data.events.length === 0}>
          {(data) => (
            <div class="scroll">
              <table class="dense">
                <thead>
                  <tr>
                    <th>Event</th>
                    <th>Transaction</th>
                    <th>Block</th>
                    <th>Owner</th>
                    <th>Ticks</th>
                    <th class="number">Liquidity</th>
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
                        <AddressLink address={event.owner} />
                      </td>
                      <td>
                        <Range lower={event.tickLower} upper={event.tickUpper} />
                      </td>
                      <td class="number">{event.liquidity === null ? '–' : count(event.liquidity)}</td>
                      <td class="number">
                        <Signed amount={event.amount0} token={token0} fraction={4} />
                      </td>
                      <td class="number">
                        <Signed amount={event.amount1} token={token1} fraction={4} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </ListOf>
        <p class="muted small note">A burn moves no tokens: it credits what is owed inside the pool, and a later collect pays it out.</p>
      </Section>
    </>
  )
}
