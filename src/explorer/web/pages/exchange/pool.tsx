import { useRoute } from 'preact-iso'
import { useEffect, useMemo, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import type { Pool, PoolEvent, PoolEvents, PoolSwap, PoolSwaps, Position, Positions, Tick, Ticks, WithEthUsd } from '../../../../answers/exchange.ts'
import { useApi } from '../../api.ts'
import { DataTable, type Column } from '../../dataTable.tsx'
import { count, units } from '../../format.ts'
import { addressColumn, blockColumn, countColumn } from '../../tables.tsx'
import { AddressLink, BlockLink, Fields, Loading, Section, WhenLoaded } from '../../ui.tsx'
import { EventList, NotThisFamily, ROWS, Signed, Stacked, TokenLink, feePercent, eventPlace, kindColumn, pairName, swapParties, symbolOf, tokenAmount, usd, useExchange } from './shared.tsx'

// One concentrated pool: its slot, the liquidity of its ticks, its positions, swaps and events.

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

/** The owners of a pool's positions the explorer is asked about at once. */
const MAX_OWNERS = 8

/** The explorer's `/api/positions`: the NFTs of a position manager in this pool. */
type NftPositions = { positions: Array<{ manager: string; tokenId: string; holder: string; tickLower: number; tickUpper: number; liquidity: string }> }

/**
 * Who owns a position: the holder of each NFT behind it with a link to its token id when a
 * position manager minted it (several NFTs of one range are one position to the pool), else the
 * address the pool records.
 */
function PositionOwner({ position, held }: { position: Position; held: NftPositions['positions'] }) {
  const nfts = held.filter(
    (nft) => nft.manager.toLowerCase() === position.owner.toLowerCase() && nft.tickLower === position.tickLower && nft.tickUpper === position.tickUpper,
  )
  if (nfts.length === 0) return <AddressLink address={position.owner} />
  return (
    <span class="position-owner">
      {nfts.map((nft, index) => (
        <span key={nft.tokenId}>
          {index > 0 ? ', ' : ''}
          <AddressLink address={nft.holder} />{' '}
          <a href={`/nft/${nft.manager}/${nft.tokenId}`} class="position-nft" title="the position's NFT">
            #{nft.tokenId}
          </a>
        </span>
      ))}
    </span>
  )
}

export function ExchangePoolPage() {
  const { params } = useRoute()
  const address = encodeURIComponent(params.address ?? '')
  const { data: pool, error } = useExchange<Pool & WithEthUsd>(`/cl/pool/${address}`)
  const ticks = useExchange<Ticks>(`/cl/ticks?pool=${address}`)
  // Closed positions too: a pool's history reads oddly with the ranges that made it missing.
  const positions = useExchange<Positions>(`/cl/positions?pool=${address}&closed=1&limit=${ROWS}`)
  const swaps = useExchange<PoolSwaps>(`/cl/swaps?pool=${address}&limit=${ROWS}`)
  const events = useExchange<PoolEvents>(`/cl/events?pool=${address}&limit=${ROWS}`)
  // A position a manager minted is the manager's to the pool: the explorer names the NFTs behind it.
  const owners = [...new Set((positions.data?.positions ?? []).map((position) => position.owner))].slice(0, MAX_OWNERS)
  const held = useApi<NftPositions>(owners.length > 0 ? `/positions?pool=${address}&owners=${owners.join(',')}` : null)
  if (error && !pool) return <NotThisFamily error={error} what="concentrated pool" other={{ href: `/exchange/pair/${address}`, what: 'constant-product pairs' }} />
  if (!pool) return <Loading what="the pool" />
  const { token0, token1 } = pool
  /** What a position put in, took out or collected of each side. */
  const sidesColumn = (head: string, amounts: (position: Position) => [string, string]): Column<Position> => ({
    head,
    number: true,
    class: 'stacked',
    cell: (position) => {
      const [amount0, amount1] = amounts(position)
      return <Stacked amount0={amount0} amount1={amount1} token0={token0} token1={token1} fraction={4} />
    },
  })
  return (
    <>
      <p class="crumbs">
        <a href="/exchange">Exchange</a> / concentrated pool
      </p>
      <Section title={`${pairName(pool)} · ${feePercent(pool.fee)}`} id="pool" main>
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
        <WhenLoaded loaded={ticks} what="ticks">
          {(data) => <LiquidityChart ticks={data.ticks} current={pool.tick} spacing={pool.tickSpacing} />}
        </WhenLoaded>
      </Section>
      <Section title="Positions" id="pool-positions">
        <WhenLoaded loaded={positions} what="positions">
          {({ positions }) => (
            <DataTable
              rows={positions}
              rowKey={(position) => `${position.owner}:${position.tickLower}:${position.tickUpper}`}
              row={(position) => ({ class: position.closed ? 'closed' : undefined })}
              dense
              empty="No positions yet."
              columns={[
                { head: 'Owner', cell: (position) => <PositionOwner position={position} held={held.data?.positions ?? []} /> },
                { head: 'Ticks', cell: (position) => <Range lower={position.tickLower} upper={position.tickUpper} current={pool.tick} closed={position.closed} /> },
                countColumn<Position>('Liquidity', (position) => position.liquidity),
                sidesColumn('Deposited', (position) => [position.deposited0, position.deposited1]),
                sidesColumn('Withdrawn', (position) => [position.withdrawn0, position.withdrawn1]),
                sidesColumn('Collected', (position) => [position.collected0, position.collected1]),
                { ...blockColumn<Position>((position) => position.lastBlock), head: 'Last change' },
              ]}
            />
          )}
        </WhenLoaded>
      </Section>
      <Section title="Swaps" id="pool-swaps">
        <EventList
          loaded={swaps}
          what="swaps"
          rows={(data) => data.swaps}
          columns={[
            ...eventPlace<PoolSwap>(),
            ...swapParties<PoolSwap>(),
            { head: symbolOf(token0), number: true, cell: (swap) => <Signed amount={swap.amount0} token={token0} /> },
            { head: symbolOf(token1), number: true, cell: (swap) => <Signed amount={swap.amount1} token={token1} /> },
            countColumn<PoolSwap>('Tick after', (swap) => swap.tick),
          ]}
        />
        <p class="muted small note">Amounts from the pool's side: + paid into the pool, − paid out of it.</p>
      </Section>
      <Section title="Mints, burns and collects" id="pool-events">
        <EventList
          loaded={events}
          what="events"
          rows={(data) => data.events}
          columns={[
            kindColumn<PoolEvent>(),
            ...eventPlace<PoolEvent>(),
            addressColumn<PoolEvent>('Owner', (event) => event.owner),
            { head: 'Ticks', cell: (event) => <Range lower={event.tickLower} upper={event.tickUpper} /> },
            { head: 'Liquidity', number: true, cell: (event) => (event.liquidity === null ? '–' : count(event.liquidity)) },
            { head: symbolOf(token0), number: true, cell: (event) => <Signed amount={event.amount0} token={token0} fraction={4} /> },
            { head: symbolOf(token1), number: true, cell: (event) => <Signed amount={event.amount1} token={token1} fraction={4} /> },
          ]}
        />
        <p class="muted small note">A burn moves no tokens: it credits what is owed inside the pool, and a later collect pays it out.</p>
      </Section>
    </>
  )
}

