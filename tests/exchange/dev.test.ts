import { afterAll, expect, test } from 'bun:test'
import { configDir, fromSource, ROOT, startStack, type RunningStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// `stack dev` as a developer runs it: a fresh dev chain, the spool's worker running both
// streams, and the exchange answering every route with the seeded activity.

let stack: RunningStack | null = null
afterAll(async () => {
  await stack?.stop('SIGINT')
})

type Body = Record<string, any>
const get = async (path: string) => {
  const response = await fetch(`${stack!.urls.exchange}${path}`)
  return { status: response.status, body: (await response.json()) as Body }
}

test('stack dev: every exchange route answers from the seeded chain', async () => {
  const { dir, file } = configDir(`[dev]\nport = 0\n[registry]\nsource = "${ROOT}/registry"\n`)
  stack = await startStack(fromSource, ['dev', '--config', file], { cwd: dir, timeoutMs: 60_000 })
  // Both streams have read the seeded blocks (the seed ends well past block 100).
  await waitFor(async () => {
    const { body } = await get('/health')
    return body.spoolHeadBlock > 100 && body.streams.v2.cursorBlock > 100 && body.streams.cl.cursorBlock > 100
  }, 'both streams past the seeded blocks', 30_000)

  const pools = (await get('/pools')).body
  // The seed's three pairs, and the pairs of the three tokens it launches.
  expect(pools.pools.map((row: Body) => `${row.token0.symbol}/${row.token1.symbol}`).sort()).toEqual(['BX/DUSD', 'BX/WETH', 'DCM/WETH', 'DUSD/WETH', 'MOON/WETH', 'PXL/WETH'])
  // From the price feed the seed updates: 3000 dollars.
  expect(pools.ethUsd).toBe('3000')
  expect((await get(`/api/pool/${pools.pools[0].pair.slice(2)}`)).body.pair).toBe(pools.pools[0].pair)
  // The explorer has kept its validated token list: the listed tokens are verified, launched ones not.
  await waitFor(async () => (await get('/tokens')).body.tokens.some((token: Body) => token.verified), 'the explorer\'s token list kept', 10_000)
  const marks = Object.fromEntries((await get('/tokens')).body.tokens.map((token: Body) => [token.symbol, token.verified]))
  expect(marks).toEqual({ BX: true, WETH: true, DUSD: true, MOON: false, PXL: false, DCM: false })
  expect((await get('/swaps')).body.swaps).toHaveLength(11)
  expect((await get('/events')).body.events).toHaveLength(8)
  expect((await get('/stats')).body).toMatchObject({ pools: 6, swaps: 11, poolsWithEth: 5, ethUsd: '3000', concentrated: { pools: 2, positions: 5, closedPositions: 1 } })

  const clPools = (await get('/cl/pools')).body.pools
  expect(clPools.map((row: Body) => row.fee).sort((a: number, b: number) => a - b)).toEqual([500, 3000])
  expect((await get(`/cl/pool/${clPools[0].pool}`)).body.price).toMatch(/^\d+\.\d+$/)
  expect((await get('/cl/tiers')).body.tiers.map((tier: Body) => tier.fee)).toEqual([500, 3000, 10000])
  expect((await get('/cl/positions')).body.positions).toHaveLength(5)
  expect((await get(`/cl/ticks?pool=${clPools[0].pool}`)).body.ticks.length).toBeGreaterThan(0)
  expect((await get('/cl/swaps')).body.swaps).toHaveLength(5)
  expect((await get('/cl/events?kind=collect')).body.events).toHaveLength(2)
  expect(await stack.stop('SIGINT')).toBe(0)
  stack = null
})
