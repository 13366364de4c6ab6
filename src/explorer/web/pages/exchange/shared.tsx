import type { ComponentChildren } from 'preact'
import type { Counters, EventId, TokenSide as Token } from '../../../../answers/exchange.ts'
import { useApi, type ApiError, type Loaded } from '../../api.ts'
import { readableSignificant } from '../../../../format/significant.ts'
import { DataTable, type Column } from '../../dataTable.tsx'
import { count, short, units } from '../../format.ts'
import { addressColumn, blockColumn, txColumn } from '../../tables.tsx'
import { Failure, WhenLoaded } from '../../ui.tsx'
import '../../exchange.css'

// The exchange index's pages. The index sends no CORS header (docs/exchange.md), so the pages read it
// through the explorer's proxy on this origin, /dex, which asks the same path of it.

/** Where this origin passes requests on to the exchange index (routes/exchangeProxy.ts). */
export const EXCHANGE_API = '/dex'

/** The answers change with each block at most: a page that stays open follows them at this pace. */
export const REFRESH_MS = 10_000

/** Rows a list asks for: the index clamps to 1..500 and gives no total. */
export const ROWS = 25

/** useApi over the exchange index: the answer of `path`, again every REFRESH_MS. */
export const useExchange = <T,>(path: string | null, refreshMs: number | undefined = REFRESH_MS): Loaded<T> => useApi<T>(path, refreshMs, EXCHANGE_API)

// Numbers as the pages write them: exact, from the decimal strings, with BigInt.

export const symbolOf = (token: Token): string => token.symbol ?? short(token.address, 4)

/** An amount in the token's units with its symbol; raw base units when its decimals are unknown. */
export const tokenAmount = (amount: string, token: Token, fraction = 6): string =>
  token.decimals === null ? `${count(amount)} base units` : `${units(amount, token.decimals, fraction)} ${symbolOf(token)}`

/** A decimal string ("12088374.9765") with its whole part grouped, the digits as given. */
export function grouped(decimal: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(decimal)
  return match ? `${match[1]}${count(match[2]!)}${match[3] ?? ''}` : decimal
}

/** Dollars as the index gives them (a decimal string, or null when it cannot say). */
export const usd = (value: string | null): string => (value === null ? '–' : `$${grouped(value)}`)

/**
 * numerator / denominator as a decimal string of `digits` significant figures, rounded half up,
 * worked out in BigInt: for the figures the index leaves to its callers (a pair's price).
 */
export function ratio(numerator: bigint, denominator: bigint, digits = 12): string {
  return denominator === 0n ? '–' : grouped(readableSignificant(numerator, denominator, digits))
}

/** What one whole token0 buys in token1 at a pair's reserves; null while a side is empty or a token's decimals are unknown. */
export function pairPrice(reserve0: string, reserve1: string, token0: Token, token1: Token): string | null {
  if (token0.decimals === null || token1.decimals === null || BigInt(reserve0) === 0n || BigInt(reserve1) === 0n) return null
  return ratio(BigInt(reserve1) * 10n ** BigInt(token0.decimals), BigInt(reserve0) * 10n ** BigInt(token1.decimals))
}

/** The same price the other way round: what one whole token1 buys in token0. */
export const inversePrice = (reserve0: string, reserve1: string, token0: Token, token1: Token) => pairPrice(reserve1, reserve0, token1, token0)

/** A fee in millionths as a percentage: 3000 is 0.3%. */
export const feePercent = (fee: number): string => `${units(String(fee), 4, 4)}%`

/** Wei over the index's denominator as ether, when the denominator is a power of ten (it is 10^18). */
export function etherValue(wei: string, denominator: string): string {
  return /^10*$/.test(denominator) ? `${units(wei, denominator.length - 1, 4)} ETH` : `${ratio(BigInt(wei), BigInt(denominator))} ETH`
}

/** An amount of the pool's side, signed as the index gives it: paid into the pool positive, out of it negative. */
export function Signed({ amount, token, fraction = 6 }: { amount: string; token: Token; fraction?: number }) {
  const sign = amount.startsWith('-') ? 'out' : amount === '0' ? 'none' : 'in'
  return <span class={`flow ${sign}`}>{sign === 'in' ? '+' : ''}{tokenAmount(amount, token, fraction)}</span>
}

// The parts of the pages.

/** An amount of each side, one above the other (in a cell of class `stacked`). */
export function Stacked({ amount0, amount1, token0, token1, fraction = 6 }: { amount0: string; amount1: string; token0: Token; token1: Token; fraction?: number }) {
  return (
    <>
      <span>{tokenAmount(amount0, token0, fraction)}</span>
      <span>{tokenAmount(amount1, token1, fraction)}</span>
    </>
  )
}

export function TokenLink({ token }: { token: Token }) {
  return (
    <a href={`/token/${token.address}`} title={token.address}>
      {symbolOf(token)}
    </a>
  )
}

export const pairName = (row: { token0: Token; token1: Token }) => `${symbolOf(row.token0)} / ${symbolOf(row.token1)}`

export function Stat({ id, name, children }: { id: string; name: string; children: ComponentChildren }) {
  return (
    <div id={`exchange-stat-${id}`}>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  )
}

export function CounterCards({ counters }: { counters: Counters }) {
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
      {/* Not value locked but a lower bound over the pairs with a WETH side, and said so. */}
      <p class="value-line" id="exchange-value">
        The WETH side of {count(counters.poolsWithEth)} of the {count(counters.pools)} pairs, doubled: <strong>{etherValue(counters.valueEthWei, counters.valueEthDenominator)}</strong>
        {counters.valueUsd === null ? null : <> ({usd(counters.valueUsd)})</>}
        <span class="muted">. Pairs without WETH and the concentrated pools are not counted.</span>
      </p>
    </>
  )
}

/** A list of the index's events (swaps, mints, burns, collects) once loaded, newest first, each named by its transaction and log. */
export function EventList<R, T extends EventId>({ loaded, what, rows, columns }: { loaded: Loaded<R>; what: string; rows: (data: R) => T[]; columns: Array<Column<T>> }) {
  return (
    <WhenLoaded loaded={loaded} what={what}>
      {(data) => <DataTable rows={rows(data)} rowKey={(event) => `${event.txHash}:${event.logIndex}`} dense empty={`No ${what} yet.`} columns={columns} />}
    </WhenLoaded>
  )
}

/** Where an event is: its transaction and its block. */
export const eventPlace = <T extends EventId>(): Array<Column<T>> => [txColumn<T>((event) => event.txHash), blockColumn<T>((event) => event.block)]

/** Who swapped, and for whom. */
export const swapParties = <T extends { sender: string; recipient: string }>(): Array<Column<T>> => [addressColumn<T>('Sender', (swap) => swap.sender), addressColumn<T>('Recipient', (swap) => swap.recipient)]

/** A mint, burn or collect, as a badge of its colour. */
export const kindColumn = <T extends { kind: string }>(): Column<T> => ({ head: 'Event', cell: (event) => <span class={`badge kind-${event.kind}`}>{event.kind}</span> })

/** A 404 of one family may be an address of the other: say so, with the link. */
export function NotThisFamily({ error, what, other }: { error: ApiError; what: string; other: { href: string; what: string } }) {
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

/** The amounts of a swap on either side that are not zero (a swap may pay in on both). */
export function sides(amount0: string, amount1: string, token0: Token, token1: Token): string {
  const shown = [amount0 !== '0' ? tokenAmount(amount0, token0) : null, amount1 !== '0' ? tokenAmount(amount1, token1) : null].filter((text) => text !== null)
  return shown.length === 0 ? '–' : shown.join(' + ')
}

