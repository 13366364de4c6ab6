import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { expectText, openPage, pagesStack, screenshot, type PagesStack } from '../helpers/explorerPages.ts'
import { waitFor } from '../helpers/wait.ts'

// The exchange pages in Chromium against `stack dev`: the explorer passes /dex/* on to
// the exchange index (which sends no CORS header, so a page cannot ask it itself), and each page
// shows what the index says: read here, through the proxy and straight from the index, and found
// on the page. No page meets a script error or a failed request.

let stack: PagesStack
let page: Page
let errors: string[]
let close: () => Promise<void>
/** An answer of the exchange index through the explorer's proxy, as the pages read it. */
let proxied: <T = any>(path: string) => Promise<T>
/** The same answer straight from the exchange index. */
let direct: <T = any>(path: string) => Promise<T>

type Token = { address: string; symbol: string | null; decimals: number | null }
type Pair = { pair: string; token0: Token; token1: Token; reserve0: string; reserve1: string; swapCount: number; mintCount: number; burnCount: number }
type Pool = { pool: string; token0: Token; token1: Token; fee: number; tick: number | null; activeLiquidity: string; balance0: string; balance1: string; price: string | null; swapCount: number }
type Counters = { pools: number; swaps: number; poolsWithEth: number; valueEthWei: string; valueUsd: string | null; ethUsd: string | null; concentrated: { pools: number; swaps: number; positions: number } }

beforeAll(async () => {
  stack = await pagesStack()
  proxied = async <T,>(path: string) => (await (await fetch(`${stack.origin}/dex${path}`)).json()) as T
  direct = async <T,>(path: string) => (await (await fetch(`${stack.stack.urls.exchange}${path}`)).json()) as T
  // Both streams of the index past the seed, and still: what the test reads is what the page shows.
  let last = ''
  await waitFor(async () => {
    const health = await direct<{ streams?: { v2: { lagBlocks: number }; cl: { lagBlocks: number } } }>('/health')
    const stats = JSON.stringify(await direct('/stats'))
    const settled = health.streams !== undefined && health.streams.v2.lagBlocks <= 2 && health.streams.cl.lagBlocks <= 2 && stats === last
    last = stats
    // Still means the same figures half a second apart.
    if (!settled) await Bun.sleep(500)
    return settled
  }, 'the exchange index past the seed', 40_000)
  ;({ page, errors, close } = await openPage(stack.browser))
}, 120_000)
afterAll(async () => {
  await close?.()
})

// Written here apart from the pages' own formatting, so that a slip there shows.
const grouped = (value: number | bigint | string) => BigInt(value).toLocaleString('en-US')
/** An amount in its token's units, at most `fraction` places, trailing zeroes dropped. */
function inUnits(amount: string, decimals: number, fraction = 6): string {
  const value = BigInt(amount)
  const negative = value < 0n
  const size = negative ? -value : value
  const scale = 10n ** BigInt(decimals)
  const places = (size % scale).toString().padStart(decimals, '0').slice(0, fraction).replace(/0+$/, '')
  return `${negative ? '-' : ''}${grouped(size / scale)}${places ? `.${places}` : ''}`
}
const tokenAmount = (amount: string, token: Token) => `${inUnits(amount, token.decimals!)} ${token.symbol}`
const shortHash = (hash: string) => hash.slice(0, 8)
/** A decimal string with its whole part grouped. */
const groupedDecimal = (text: string) => text.replace(/^\d+/, (whole) => grouped(whole))

describe('the proxy on the explorer origin', () => {
  test('answers what the exchange index answers, for both families, as JSON with no-store', async () => {
    for (const path of ['/pools', '/cl/pools', '/cl/tiers', '/stats']) {
      const response = await fetch(`${stack.origin}/dex${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toStartWith('application/json')
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(await response.json()).toEqual(await direct(path))
    }
    const pairs = await proxied<{ pools: Pair[] }>('/pools')
    const pair = pairs.pools[0]!.pair
    // Any case, as the index matches it; the query passed on.
    expect(await proxied(`/pool/${pair.toLowerCase()}`)).toEqual(await direct(`/pool/${pair}`))
    expect(await proxied(`/swaps?pair=${pair}&limit=1`)).toEqual(await direct(`/swaps?pair=${pair}&limit=1`))
  })

  test("passes on the index's errors and refuses paths it does not serve", async () => {
    const pool = (await proxied<{ pools: Pool[] }>('/cl/pools')).pools[0]!.pool
    // A concentrated pool is no pair: the index's own 404.
    const wrongFamily = await fetch(`${stack.origin}/dex/pool/${pool}`)
    expect(wrongFamily.status).toBe(404)
    expect(await wrongFamily.json()).toEqual(await direct(`/pool/${pool}`))
    const missingPool = await fetch(`${stack.origin}/dex/cl/ticks`)
    expect(missingPool.status).toBe(400)
    for (const path of ['/dex/nope', '/dex/cl/pool/0x12.34', '/dex/api/stats', '/dex/http://example.com/pools']) {
      const response = await fetch(`${stack.origin}${path}`)
      expect(response.status).toBe(404)
      expect(typeof ((await response.json()) as { error?: unknown }).error).toBe('string')
    }
    expect((await fetch(`${stack.origin}/dex/pools`, { method: 'POST' })).status).toBe(405)
  })
})

describe('the exchange pages', () => {
  test('/exchange: counters, the pairs with reserves and prices, the concentrated pools', async () => {
    const stats = await proxied<Counters>('/stats')
    const { pools: pairs } = await proxied<{ pools: Pair[] }>('/pools')
    const { pools } = await proxied<{ pools: Pool[] }>('/cl/pools')
    expect(pairs.length).toBeGreaterThan(0)
    expect(pools.length).toBeGreaterThan(0)
    const response = await page.goto(`${stack.origin}/exchange`)
    expect(response?.status()).toBe(200)
    await expectText(page, '#exchange-stat-pairs dd', grouped(stats.pools))
    await expectText(page, '#exchange-stat-swaps dd', grouped(stats.swaps))
    await expectText(page, '#exchange-stat-cl-pools dd', grouped(stats.concentrated.pools))
    await expectText(page, '#exchange-stat-cl-positions dd', grouped(stats.concentrated.positions))
    expect(stats.ethUsd).not.toBeNull()
    await expectText(page, '#exchange-stat-eth-usd dd', `$${groupedDecimal(stats.ethUsd!)}`)
    // Not value locked: the WETH side doubled, over the pairs that have one (docs/exchange.md).
    await expectText(page, '#exchange-value', `The WETH side of ${stats.poolsWithEth} of the ${stats.pools} pairs, doubled: ${inUnits(stats.valueEthWei, 18, 4)} ETH ($${groupedDecimal(stats.valueUsd!)})`)
    for (const pair of pairs) {
      const row = `#exchange-pairs tr[data-pair="${pair.pair}"]`
      await expectText(page, row, `${pair.token0.symbol} / ${pair.token1.symbol}`)
      await expectText(page, row, tokenAmount(pair.reserve0, pair.token0))
      await expectText(page, row, tokenAmount(pair.reserve1, pair.token1))
    }
    // The DUSD / WETH pair of the seed is priced at about 1/3000 WETH a DUSD (3000 dollars an ether).
    const dusd = pairs.find((pair) => pair.token0.symbol === 'DUSD' && pair.token1.symbol === 'WETH')
    if (dusd) await expectText(page, `#exchange-pairs tr[data-pair="${dusd.pair}"]`, '0.000333')
    for (const pool of pools) {
      const row = `#exchange-pools tr[data-pool="${pool.pool}"]`
      await expectText(page, row, `${pool.token0.symbol} / ${pool.token1.symbol}`)
      // A price the index gives is shown as given.
      await expectText(page, row, pool.price!)
      await expectText(page, row, grouped(pool.tick!))
      await expectText(page, row, grouped(pool.activeLiquidity))
      await expectText(page, row, tokenAmount(pool.balance0, pool.token0))
    }
    expect(await page.locator('header nav a[href="/exchange"]').textContent()).toBe('Exchange')
    await screenshot(page, 'exchange')
    expect(errors).toEqual([])
  })

  test('a pair: reserves, price, swaps, mints and burns', async () => {
    const { pools: pairs } = await proxied<{ pools: Pair[] }>('/pools')
    // The seed's pair that has swaps, mints and a burn.
    const pair = pairs.find((row) => row.swapCount > 0 && row.burnCount > 0) ?? pairs[0]!
    const swaps = (await proxied<{ swaps: Array<{ txHash: string; amount0In: string; amount1In: string; amount0Out: string; amount1Out: string }> }>(`/swaps?pair=${pair.pair}`)).swaps
    const events = (await proxied<{ events: Array<{ txHash: string; kind: string; amount0: string; amount1: string }> }>(`/events?pair=${pair.pair}`)).events
    // Straight from the index: the same rows the proxy gave.
    expect((await direct<{ swaps: unknown[] }>(`/swaps?pair=${pair.pair}`)).swaps).toEqual(swaps)
    // The address in any case reaches the same pair.
    await page.goto(`${stack.origin}/exchange/pair/${pair.pair.toLowerCase()}`)
    await expectText(page, '#pair h1', `${pair.token0.symbol} / ${pair.token1.symbol}`)
    await expectText(page, '#pair', pair.pair)
    await expectText(page, '#pair-reserves', `${tokenAmount(pair.reserve0, pair.token0)} and ${tokenAmount(pair.reserve1, pair.token1)}`)
    await expectText(page, '#pair-price', `1 ${pair.token0.symbol} = `)
    await expectText(page, '#pair-swap-count', grouped(pair.swapCount))
    expect(swaps.length).toBeGreaterThan(0)
    for (const swap of swaps) {
      await expectText(page, '#pair-swaps tbody', shortHash(swap.txHash))
      const paidIn = swap.amount0In !== '0' ? tokenAmount(swap.amount0In, pair.token0) : tokenAmount(swap.amount1In, pair.token1)
      await expectText(page, '#pair-swaps tbody', paidIn)
    }
    expect(await page.locator('#pair-swaps tbody tr').count()).toBe(swaps.length)
    expect(events.length).toBeGreaterThan(0)
    for (const event of events) {
      await expectText(page, '#pair-events tbody', shortHash(event.txHash))
      await expectText(page, '#pair-events tbody', tokenAmount(event.amount0, pair.token0))
    }
    expect(await page.locator('#pair-events tbody .badge.kind-mint').count()).toBe(events.filter((event) => event.kind === 'mint').length)
    await screenshot(page, 'exchange-pair')
    expect(errors).toEqual([])
  })

  test('from the list to a concentrated pool: price, tick, liquidity, balances, the tick chart, positions, swaps, events', async () => {
    const { pools } = await proxied<{ pools: Pool[] }>('/cl/pools')
    // The seed's busiest pool, first in the list.
    const listed = pools[0]!
    const pool = await proxied<Pool>(`/cl/pool/${listed.pool}`)
    expect(await direct(`/cl/pool/${listed.pool}`)).toEqual(pool)
    const ticks = (await proxied<{ ticks: Array<{ tick: number; liquidityNet: string }> }>(`/cl/ticks?pool=${pool.pool}`)).ticks
    const positions = (await proxied<{ positions: Array<{ owner: string; tickLower: number; tickUpper: number; liquidity: string; closed: boolean }> }>(`/cl/positions?pool=${pool.pool}&closed=1`)).positions
    const swaps = (await proxied<{ swaps: Array<{ txHash: string; amount0: string; amount1: string; tick: number }> }>(`/cl/swaps?pool=${pool.pool}`)).swaps
    const events = (await proxied<{ events: Array<{ txHash: string; kind: string }> }>(`/cl/events?pool=${pool.pool}`)).events

    // The chart's depth at the current tick is the pool's active liquidity: the running sum of
    // liquidityNet over the ticks at or below it.
    const depth = ticks.filter((tick) => tick.tick <= pool.tick!).reduce((sum, tick) => sum + BigInt(tick.liquidityNet), 0n)
    expect(depth.toString()).toBe(pool.activeLiquidity)

    await page.goto(`${stack.origin}/exchange`)
    await page.locator(`#exchange-pools tr[data-pool="${pool.pool}"] a`).click()
    await page.waitForURL((url) => url.pathname === `/exchange/pool/${pool.pool}`)
    await expectText(page, '#pool h1', `${pool.token0.symbol} / ${pool.token1.symbol}`)
    await expectText(page, '#pool', pool.pool)
    await expectText(page, '#pool-price', `1 ${pool.token0.symbol} = ${pool.price} ${pool.token1.symbol}`)
    await expectText(page, '#pool-tick', grouped(pool.tick!))
    await expectText(page, '#pool-liquidity', grouped(pool.activeLiquidity))
    await expectText(page, '#pool-balances', `${tokenAmount(pool.balance0, pool.token0)} and ${tokenAmount(pool.balance1, pool.token1)}`)
    // The tick chart is drawn, and says what it covers.
    await page.locator('#pool-chart canvas').first().waitFor({ timeout: 10_000 })
    const chart = await page.locator('#pool-chart [role="img"]').getAttribute('aria-label')
    expect(chart).toContain(`from tick ${ticks[0]!.tick} to ${ticks.at(-1)!.tick}`)
    expect(chart).toContain(`current tick ${pool.tick}`)
    await expectText(page, '#pool-chart', `${ticks.length - 1} tick ranges`)

    expect(positions.length).toBeGreaterThan(0)
    for (const position of positions) {
      await expectText(page, '#pool-positions tbody', `${grouped(position.tickLower)} → ${grouped(position.tickUpper)}`)
      await expectText(page, '#pool-positions tbody', grouped(position.liquidity))
    }
    expect(await page.locator('#pool-positions tbody tr').count()).toBe(positions.length)
    expect(await page.locator('#pool-positions tbody tr.closed').count()).toBe(positions.filter((position) => position.closed).length)
    // The positions whose range holds the current tick are the ones marked in range.
    const inRange = positions.filter((position) => !position.closed && position.tickLower <= pool.tick! && pool.tick! < position.tickUpper)
    expect(await page.locator('#pool-positions tbody .badge.good').count()).toBe(inRange.length)

    expect(swaps.length).toBeGreaterThan(0)
    for (const swap of swaps) {
      await expectText(page, '#pool-swaps tbody', shortHash(swap.txHash))
      await expectText(page, '#pool-swaps tbody', tokenAmount(swap.amount0, pool.token0))
      await expectText(page, '#pool-swaps tbody', tokenAmount(swap.amount1, pool.token1))
      await expectText(page, '#pool-swaps tbody', grouped(swap.tick))
    }
    expect(events.length).toBeGreaterThan(0)
    for (const event of events) await expectText(page, '#pool-events tbody', shortHash(event.txHash))
    for (const kind of ['mint', 'burn', 'collect']) {
      expect(await page.locator(`#pool-events tbody .badge.kind-${kind}`).count()).toBe(events.filter((event) => event.kind === kind).length)
    }
    await screenshot(page, 'exchange-pool')
    expect(errors).toEqual([])
  })

  test('from the list to a pair, and an address of the other family says where to look', async () => {
    const { pools: pairs } = await proxied<{ pools: Pair[] }>('/pools')
    const { pools } = await proxied<{ pools: Pool[] }>('/cl/pools')
    await page.goto(`${stack.origin}/exchange`)
    await page.locator(`#exchange-pairs tr[data-pair="${pairs[0]!.pair}"] a`).click()
    await page.waitForURL((url) => url.pathname === `/exchange/pair/${pairs[0]!.pair}`)
    await expectText(page, '#pair-reserves', tokenAmount(pairs[0]!.reserve0, pairs[0]!.token0))
    // A concentrated pool's address on the pair page: the index's 404, and a link to the pool page.
    const pool = pools[0]!.pool
    await page.goto(`${stack.origin}/exchange/pair/${pool}`)
    await expectText(page, 'main [role="alert"]', 'No such pair')
    await page.getByRole('link', { name: 'Look for it among the concentrated pools →' }).click()
    await page.waitForURL((url) => url.pathname === `/exchange/pool/${pool}`)
    await expectText(page, '#pool', pool)
    // The 404 was the index's answer, passed on: the one failed fetch the page saw.
    expect(errors.filter((error) => !error.includes('404'))).toEqual([])
    errors.length = 0
  })
})
