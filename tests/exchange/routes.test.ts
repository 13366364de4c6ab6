import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { copyFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { erc20Abi, getAddress, parseUnits, type Address } from 'viem'
import { addressKey } from '../../src/eth/address.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours, uniswap } from '../../src/devnet/artifacts.ts'
import { createExchangeApp } from '../../src/exchange/app.ts'
import { INVALID_PARAMETER } from '../../src/exchange/http/params.ts'
import { silentLogger } from '../../src/log.ts'
import { keptRegistryDir } from '../../src/registry/kept.ts'
import { ROOT } from '../helpers/stack.ts'
import { serveOnFreePort } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'
import { manySmallSwaps } from './activity.ts'
import { indexedChain, type IndexedChain } from './helpers.ts'

// Every route of docs/exchange.md "Routes" on the seeded dev chain: shapes, order, defaults, clamps
// and statuses, at `/` and under `/api/`.

type Body = Record<string, any>
let indexed: IndexedChain
let pairs: Body[]
let pools: Body[]
const SWAPS = 60
// What the seed does on constant-product pairs: three pairs of its own with 4 mints, 6 swaps and
// a burn, and three launched tokens, each launch a pair with one mint, with 5 swaps among them.
const SEED = { pairs: 3 + 3, swaps: 6 + 5, mints: 4 + 3, burns: 1, pairsWithEth: 2 + 3 }

beforeAll(async () => {
  indexed = await indexedChain()
  const { BX, WETH9 } = indexed.manifest.contracts
  const listed = (await indexed.get<Body>('/pools')).body.pools as Body[]
  const bxWeth = listed.find((row) => row.token0.address === BX && row.token1.address === WETH9)!
  // Enough swaps on one pair for the default limit and the clamp to show.
  await manySmallSwaps(indexed.anvil.rpcUrl, bxWeth.pair, BX, true, SWAPS)
  await indexed.caughtUp()
  pairs = (await indexed.get<Body>('/pools')).body.pools
  pools = (await indexed.get<Body>('/cl/pools')).body.pools
})
afterAll(() => indexed?.stop())

const get = (path: string) => indexed.get<Body>(path)
const lower = (address: string) => address.toLowerCase()
/** The address with the case of its first letter flipped: mixed case whose checksum no longer holds. */
const badChecksum = (address: string) => address.replace(/[a-fA-F]/, (letter) => (letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()))
/** Newest first: blocks never go up, and within one transaction the log index goes down. */
const newestFirst = (rows: Body[]) => {
  for (let index = 1; index < rows.length; index++) {
    const [before, after] = [rows[index - 1]!, rows[index]!]
    expect(before.block).toBeGreaterThanOrEqual(after.block)
    if (before.txHash === after.txHash) expect(before.logIndex).toBeGreaterThan(after.logIndex)
  }
}

describe('every route at / and under /api/', () => {
  test('the same answer at both mounts, with the conventions headers and no CORS header', async () => {
    const pool = pools[0]!.pool
    for (const path of ['/pools', `/pool/${pairs[0]!.pair}`, '/tokens', '/swaps', '/events', '/stats', '/cl/pools', `/cl/pool/${pool}`, '/cl/tiers', '/cl/positions', `/cl/ticks?pool=${pool}`, '/cl/swaps', '/cl/events']) {
      const [plain, mounted] = await Promise.all([fetch(`${indexed.app.url}${path}`), fetch(`${indexed.app.url}/api${path}`)])
      expect([plain.status, mounted.status]).toEqual([200, 200])
      expect(await mounted.json()).toEqual(await plain.json())
      expect(plain.headers.get('cache-control')).toBe('no-store')
      expect(plain.headers.get('x-content-type-options')).toBe('nosniff')
      expect([...plain.headers.keys()].filter((name) => name.startsWith('access-control'))).toEqual([])
    }
  })

  test('unknown routes and other verbs are JSON 404s', async () => {
    for (const path of ['/nope', '/pool/', '/cl/pool/', '/cl/nope', '/api/cl']) expect((await get(path)).status).toBe(404)
    const post = await fetch(`${indexed.app.url}/pools`, { method: 'POST' })
    expect(post.status).toBe(404)
    expect(await post.json()).toEqual({ error: 'not found' })
  })
})

describe('constant-product routes', () => {
  test('/pools is an object {pools, ethUsd}, ordered by swap count, amounts as decimal strings', async () => {
    const { body } = await get('/pools')
    expect(Object.keys(body)).toEqual(['pools', 'ethUsd'])
    expect(body.pools.map((row: Body) => row.swapCount)).toEqual([...body.pools.map((row: Body) => row.swapCount)].sort((a, b) => b - a))
    expect(body.pools[0].swapCount).toBe(2 + SWAPS)
    for (const row of body.pools) {
      for (const field of ['reserve0', 'reserve1', 'volume0', 'volume1']) expect(row[field]).toMatch(/^\d+$/)
      expect(row.token0).toEqual({ address: expect.any(String), symbol: expect.any(String), decimals: expect.any(Number) })
      expect(typeof row.reservesBlock).toBe('number')
      expect(typeof row.createdBlock).toBe('number')
      // No per-token price from reserves.
      expect(row.price).toBeUndefined()
    }
  })

  test("ethUsd is the price feed's latest answer scaled by its decimals, not the exchange's reserves", async () => {
    const { EthUsdFeed } = indexed.manifest.contracts
    const [, answer] = await indexed.dev.read<[bigint, bigint, bigint, bigint, bigint]>(EthUsdFeed, ours.EthUsdFeed.abi, 'latestRoundData')
    const decimals = await indexed.dev.read<number>(EthUsdFeed, ours.EthUsdFeed.abi, 'decimals')
    expect([answer, decimals]).toEqual([3000n * 10n ** 8n, 8])
    expect((await get('/pools')).body.ethUsd).toBe('3000')
    // A new round shows within a second (one reading serves the requests of a second), to the
    // feed's last decimal: a decimal string worked out in bigint, like every amount.
    await indexed.dev.write(devAccounts.treasury, EthUsdFeed, ours.EthUsdFeed.abi, 'update', [parseUnits('3123.45678901', 8)])
    await waitFor(async () => (await get('/pools')).body.ethUsd === '3123.45678901', 'the new round in ethUsd')
    for (const path of ['/cl/pools', `/pool/${pairs[0]!.pair}`, '/stats']) expect((await get(path)).body.ethUsd).toBe('3123.45678901')
  })

  test('ethUsd and every dollar figure are null, never 0, with no feed configured', async () => {
    const config = { ...indexed.config, exchange: { ...indexed.config.exchange, ethUsdFeed: '' } }
    const app = serveOnFreePort(createExchangeApp({ config, log: silentLogger, chain: indexed.chain }, indexed.spool), 'exchange')
    try {
      const body = async (path: string) => (await (await fetch(`${app.url}${path}`)).json()) as Body
      expect((await body('/pools')).ethUsd).toBeNull()
      expect((await body('/cl/pools')).ethUsd).toBeNull()
      expect(await body('/stats')).toMatchObject({ ethUsd: null, valueUsd: null })
      expect((await body('/stats')).valueEthWei).not.toBe('0')
    } finally {
      await app.stop()
    }
  })

  test('/pool/{pair}: the same row plus ethUsd, any case, with or without 0x', async () => {
    const row = pairs[1]!
    for (const written of [row.pair, lower(row.pair), addressKey(row.pair), row.pair.toUpperCase().replace('0X', '0x')]) {
      const { status, body } = await get(`/pool/${written}`)
      expect(status).toBe(200)
      expect(body).toEqual({ ...row, ethUsd: (await get('/pools')).body.ethUsd })
    }
  })

  test('a pool address in a path is matched case-insensitively, a broken checksum too; in a query it is an exact address', async () => {
    const pair = pairs[1]!
    const pool = pools[1]!
    expect(badChecksum(pair.pair)).not.toBe(pair.pair)
    expect((await get(`/pool/${badChecksum(pair.pair)}`)).body).toEqual((await get(`/pool/${pair.pair}`)).body)
    expect((await get(`/cl/pool/${badChecksum(pool.pool)}`)).body).toEqual((await get(`/cl/pool/${pool.pool}`)).body)
    expect((await get(`/cl/pool/${badChecksum(pool.pool).slice(2)}`)).status).toBe(200)
    for (const query of [`/swaps?pair=${badChecksum(pair.pair)}`, `/events?pair=${badChecksum(pair.pair)}`, `/cl/ticks?pool=${badChecksum(pool.pool)}`, `/cl/positions?pool=${badChecksum(pool.pool)}`]) {
      expect(await get(query)).toMatchObject({ status: 400, body: { error: INVALID_PARAMETER } })
    }
  })

  test('/pool/{pair}: 404 unknown or concentrated, 400 malformed with the fixed message', async () => {
    expect(await get(`/pool/0x${'ab'.repeat(20)}`)).toMatchObject({ status: 404, body: { error: expect.any(String) } })
    expect((await get(`/pool/${pools[0]!.pool}`)).status).toBe(404)
    for (const bad of ['xyz', '0x1234', `0x${'g'.repeat(40)}`]) expect(await get(`/pool/${bad}`)).toMatchObject({ status: 400, body: { error: INVALID_PARAMETER } })
  })

  test('/tokens lists every token on either side of a pair with its chain metadata', async () => {
    const { tokens } = (await get('/tokens')).body
    const { BX, WETH9, DUSD } = indexed.manifest.contracts
    const launched = indexed.dev.seed!.protocol.launches.map((launch) => launch.token)
    expect(tokens.map((token: Body) => token.address).sort()).toEqual([BX, WETH9, DUSD, ...launched].sort())
    for (const token of tokens) {
      expect(token.symbol).toBe(await indexed.chain.publicClient.readContract({ address: token.address, abi: erc20Abi, functionName: 'symbol' }))
      expect(token.decimals).toBe(await indexed.chain.publicClient.readContract({ address: token.address, abi: erc20Abi, functionName: 'decimals' }))
    }
  })

  test('/tokens: the verified mark only for tokens the explorer\'s kept token list lists; a launched token has none', async () => {
    const verified = async () => Object.fromEntries(((await get('/tokens')).body.tokens as Body[]).map((token) => [token.symbol, token.verified]))
    // No kept copy of the registry yet: nothing is verified.
    expect(Object.values(await verified()).every((mark) => mark === false)).toBe(true)
    // The copy the explorer keeps once it has validated the registry's list (BX, WETH, DUSD).
    const dir = join(keptRegistryDir(indexed.config), indexed.config.registry.network)
    mkdirSync(dir, { recursive: true })
    copyFileSync(join(ROOT, 'registry/testnet/tokenlist.json'), join(dir, 'tokenlist.json'))
    await waitFor(async () => (await verified()).BX === true, 'the kept token list read')
    expect(await verified()).toEqual({ BX: true, WETH: true, DUSD: true, MOON: false, PXL: false, DCM: false })
  })

  test('/swaps: newest first, default 50, limit clamped to 1..500, filters by pair and sender', async () => {
    const all = (await get('/swaps?limit=500')).body.swaps as Body[]
    expect(all.length).toBe(SEED.swaps + SWAPS)
    newestFirst(all)
    expect(Object.keys(all[0]!)).toEqual(['txHash', 'logIndex', 'block', 'pair', 'sender', 'recipient', 'amount0In', 'amount1In', 'amount0Out', 'amount1Out'])
    expect((await get('/swaps')).body.swaps).toEqual(all.slice(0, 50))
    expect((await get('/swaps?limit=0')).body.swaps).toEqual(all.slice(0, 1))
    expect((await get('/swaps?limit=-7')).body.swaps).toEqual(all.slice(0, 1))
    expect((await get('/swaps?limit=100000')).body.swaps).toEqual(all)
    const pair = pairs[2]!.pair
    expect((await get(`/swaps?pair=${addressKey(pair)}&limit=500`)).body.swaps).toEqual(all.filter((swap) => swap.pair === pair))
    const bob = devAccounts.bob.address
    const byBob = all.filter((swap) => swap.sender === bob)
    expect(byBob.length).toBeGreaterThan(0)
    expect((await get(`/swaps?sender=${lower(bob)}&limit=500`)).body.swaps).toEqual(byBob)
    expect((await get(`/swaps?sender=${bob}&pair=${pair}`)).body.swaps).toEqual(byBob.filter((swap) => swap.pair === pair))
    // A number is decimal digits, optionally signed (the explorer's rule too): no exponent, hex or fraction.
    for (const bad of ['limit=abc', 'limit=', 'limit=2.5', 'limit=1e2', 'limit=0x10', 'limit=3.5', 'pair=0x12', 'sender=nobody']) {
      expect(await get(`/swaps?${bad}`)).toMatchObject({ status: 400, body: { error: INVALID_PARAMETER } })
    }
  })

  test('/events: mints and burns newest first; a mint has a null recipient', async () => {
    const { events } = (await get('/events')).body
    newestFirst(events)
    expect(events.map((event: Body) => event.kind).sort()).toEqual(['burn', ...Array(SEED.mints).fill('mint')])
    for (const event of events) {
      expect(Object.keys(event)).toEqual(['txHash', 'logIndex', 'block', 'pair', 'kind', 'sender', 'recipient', 'amount0', 'amount1'])
      if (event.kind === 'mint') expect(event.recipient).toBeNull()
      else expect(event.recipient).toBe(devAccounts.alice.address)
    }
    const pair = events[0].pair
    expect((await get(`/events?pair=${lower(pair)}&limit=1`)).body.events).toEqual([events[0]])
  })

  test('/stats: counters, the wrapped-ether side doubled over pairs that have one, concentrated nested apart', async () => {
    const stats = (await get('/stats')).body
    const { WETH9 } = indexed.manifest.contracts
    let valueEthWei = 0n
    for (const row of pairs) {
      const [reserve0, reserve1] = await indexed.dev.read<[bigint, bigint]>(row.pair, uniswap.UniswapV2Pair.abi, 'getReserves')
      if (row.token0.address === WETH9) valueEthWei += 2n * reserve0
      if (row.token1.address === WETH9) valueEthWei += 2n * reserve1
    }
    expect(stats).toMatchObject({
      pools: SEED.pairs,
      swaps: SEED.swaps + SWAPS,
      mints: SEED.mints,
      burns: SEED.burns,
      poolsWithEth: SEED.pairsWithEth,
      poolsWithoutEth: SEED.pairs - SEED.pairsWithEth,
      valueEthWei: valueEthWei.toString(),
      valueEthDenominator: '1000000000000000000',
    })
    expect(stats.ethUsd).toBe((await get('/pools')).body.ethUsd)
    expect(stats.valueUsd).toMatch(/^\d+(\.\d+)?$/)
    expect(Number(stats.valueUsd)).toBeCloseTo((Number(valueEthWei) / 1e18) * Number(stats.ethUsd), 2)
    const wethBalances = pools.reduce((sum, row) => sum + BigInt(row.wethBalanceWei), 0n)
    expect(stats.concentrated).toMatchObject({ pools: 2, initializedPools: 2, tiers: 3, swaps: 5, mints: 6, burns: 3, collects: 2, positions: 5, closedPositions: 1, poolsWithEth: 2, poolsWithoutEth: 0, wethBalanceWei: wethBalances.toString() })
  })
})

describe('concentrated routes', () => {
  test('/cl/pools is {pools, ethUsd}; a row carries slot state, balances and an 18-figure price', async () => {
    const { body } = await get('/cl/pools')
    expect(Object.keys(body)).toEqual(['pools', 'ethUsd'])
    expect(body.ethUsd).toBe((await get('/pools')).body.ethUsd)
    const { WETH9 } = indexed.manifest.contracts
    for (const row of body.pools) {
      expect(row.initialized).toBe(true)
      for (const field of ['sqrtPriceX96', 'activeLiquidity', 'balance0', 'balance1']) expect(row[field]).toMatch(/^\d+$/)
      expect(row.wethBalanceWei).toBe(row.token0.address === WETH9 ? row.balance0 : row.balance1)
      expect(row.price.replace('.', '').replace(/^0+/, '')).toHaveLength(18)
      // The same price, roughly, from floats: (sqrtP / 2^96)^2 * 10^(d0 - d1).
      const approximate = (Number(row.sqrtPriceX96) / 2 ** 96) ** 2 * 10 ** (row.token0.decimals - row.token1.decimals)
      expect(Number(row.price) / approximate).toBeCloseTo(1, 12)
    }
  })

  test('/cl/pool/{address}: the row plus ethUsd; 404 unknown or constant-product; 400 malformed', async () => {
    const row = pools[1]!
    expect((await get(`/cl/pool/${addressKey(row.pool)}`)).body).toEqual({ ...row, ethUsd: (await get('/pools')).body.ethUsd })
    expect((await get(`/cl/pool/${pairs[0]!.pair}`)).status).toBe(404)
    expect((await get(`/cl/pool/0x${'00'.repeat(20)}`)).status).toBe(404)
    expect(await get('/cl/pool/0xnothex')).toMatchObject({ status: 400, body: { error: INVALID_PARAMETER } })
  })

  test('/cl/tiers: the factory constructor tiers in fee order, with the block that enabled them', async () => {
    const { tiers } = (await get('/cl/tiers')).body
    const factory = indexed.manifest.contracts.UniswapV3Factory
    const receipt = await indexed.chain.publicClient.getTransactionReceipt({
      hash: (await indexed.chain.publicClient.getLogs({ address: factory as Address, fromBlock: 0n, toBlock: 'latest' }))[0]!.transactionHash,
    })
    const block = Number(receipt.blockNumber)
    expect(tiers).toEqual([
      { fee: 500, tickSpacing: 10, enabledBlock: block },
      { fee: 3000, tickSpacing: 60, enabledBlock: block },
      { fee: 10000, tickSpacing: 200, enabledBlock: block },
    ])
  })

  test('/cl/positions: newest activity first, closed ones only with closed=1, filters by pool and owner', async () => {
    const open = (await get('/cl/positions')).body.positions as Body[]
    const every = (await get('/cl/positions?closed=1')).body.positions as Body[]
    expect(open.length).toBe(5)
    expect(every.length).toBe(6)
    expect(open.every((row) => !row.closed)).toBe(true)
    const closed = every.find((row) => row.closed)!
    expect(closed).toMatchObject({ liquidity: '0' })
    expect(BigInt(closed.collected0) >= BigInt(closed.withdrawn0) && BigInt(closed.collected1) >= BigInt(closed.withdrawn1)).toBe(true)
    for (let index = 1; index < every.length; index++) expect(every[index - 1]!.lastBlock).toBeGreaterThanOrEqual(every[index]!.lastBlock)
    expect(Object.keys(every[0]!)).toEqual(expect.arrayContaining(['pool', 'owner', 'tickLower', 'tickUpper', 'liquidity', 'deposited0', 'deposited1', 'withdrawn0', 'withdrawn1', 'collected0', 'collected1', 'lastBlock']))
    const pool = pools[0]!.pool
    expect((await get(`/cl/positions?closed=1&pool=${lower(pool)}`)).body.positions).toEqual(every.filter((row) => row.pool === pool))
    const manager = indexed.manifest.contracts.NonfungiblePositionManager
    expect((await get(`/cl/positions?owner=${addressKey(manager)}&limit=2`)).body.positions).toEqual(open.slice(0, 2))
    expect((await get(`/cl/positions?owner=${devAccounts.alice.address}`)).body.positions).toEqual([])
    expect((await get('/cl/positions?closed=abc')).status).toBe(400)
  })

  test('/cl/ticks: initialised ticks in tick order; pool is required', async () => {
    const { ticks } = (await get(`/cl/ticks?pool=${pools[0]!.pool}`)).body
    expect(ticks.length).toBeGreaterThan(0)
    expect(ticks.map((tick: Body) => tick.tick)).toEqual([...ticks.map((tick: Body) => tick.tick)].sort((a, b) => a - b))
    for (const tick of ticks) expect(Object.keys(tick)).toEqual(['tick', 'liquidityGross', 'liquidityNet'])
    expect(await get('/cl/ticks')).toMatchObject({ status: 400, body: { error: INVALID_PARAMETER } })
    expect((await get('/cl/ticks?pool=12')).status).toBe(400)
    // The ticks are the pool's own: an unknown pool (a constant-product pair among them) is the 404 /cl/pool answers.
    expect(await get(`/cl/ticks?pool=${pairs[0]!.pair}`)).toMatchObject({ status: 404, body: { error: 'unknown pool' } })
    expect((await get(`/cl/ticks?pool=0x${'00'.repeat(20)}`)).status).toBe(404)
  })

  test('/cl/swaps: newest first with the pool state after each; signed amounts net in opposite directions', async () => {
    const { swaps } = (await get('/cl/swaps')).body
    expect(swaps.length).toBe(5)
    newestFirst(swaps)
    for (const swap of swaps) {
      expect(Object.keys(swap)).toEqual(['txHash', 'logIndex', 'block', 'pool', 'sender', 'recipient', 'amount0', 'amount1', 'sqrtPriceX96', 'liquidity', 'tick'])
      expect(BigInt(swap.amount0) < 0n !== BigInt(swap.amount1) < 0n).toBe(true)
    }
    // The newest swap of each pool left the pool where /cl/pools says it is.
    for (const row of pools) {
      const last = swaps.find((swap: Body) => swap.pool === row.pool)
      expect([last.sqrtPriceX96, last.tick]).toEqual([row.sqrtPriceX96, row.tick])
    }
    const router = indexed.manifest.contracts.SwapRouter
    expect((await get(`/cl/swaps?sender=${lower(router)}&pool=${pools[1]!.pool}&limit=1`)).body.swaps).toEqual([swaps.find((swap: Body) => swap.pool === pools[1]!.pool)])
  })

  test('/cl/events: mints, burns and collects newest first, filtered by pool, owner and kind', async () => {
    const { events } = (await get('/cl/events')).body
    newestFirst(events)
    expect(events.length).toBe(11)
    for (const event of events) {
      expect(Object.keys(event)).toEqual(['txHash', 'logIndex', 'block', 'pool', 'kind', 'owner', 'sender', 'recipient', 'tickLower', 'tickUpper', 'liquidity', 'amount0', 'amount1'])
      if (event.kind === 'mint') expect([BigInt(event.amount0) >= 0n, event.recipient]).toEqual([true, null])
      if (event.kind === 'collect') expect([BigInt(event.amount0) <= 0n, event.liquidity, event.recipient]).toEqual([true, null, devAccounts.treasury.address])
    }
    for (const kind of ['mint', 'burn', 'collect']) {
      expect((await get(`/cl/events?kind=${kind}`)).body.events).toEqual(events.filter((event: Body) => event.kind === kind))
    }
    const manager = getAddress(indexed.manifest.contracts.NonfungiblePositionManager)
    expect((await get(`/cl/events?owner=${manager}&pool=${pools[1]!.pool}`)).body.events).toEqual(events.filter((event: Body) => event.pool === pools[1]!.pool))
    expect((await get('/cl/events?kind=swap')).status).toBe(400)
    expect((await get('/cl/events?limit=x')).status).toBe(400)
  })
})

describe('health', () => {
  test('the health object: the constant-product stream first, then each stream against the spool head', async () => {
    const head = await indexed.caughtUp()
    const { body } = await get('/health')
    expect(Object.keys(body)).toEqual(['cursorBlock', 'lagBlocks', 'updatedAt', 'spoolHeadBlock', 'streams'])
    expect(body).toMatchObject({ cursorBlock: head, lagBlocks: 0, spoolHeadBlock: head, updatedAt: body.streams.v2.updatedAt })
    expect(body.streams).toEqual({
      v2: { cursorBlock: head, lagBlocks: 0, updatedAt: expect.any(String) },
      cl: { cursorBlock: head, lagBlocks: 0, updatedAt: expect.any(String) },
    })
  })
})

// Last: it moves the chain's clock on.
describe('the price feed left alone', () => {
  test('an answer older than exchange.ethUsdMaxAgeSeconds of chain time gives null dollar figures, never 0', async () => {
    expect((await get('/pools')).body.ethUsd).not.toBeNull()
    await indexed.dev.advanceTime(indexed.config.exchange.ethUsdMaxAgeSeconds + 1)
    await waitFor(async () => (await get('/pools')).body.ethUsd === null, 'ethUsd null once the answer is stale')
    expect(await get('/stats')).toMatchObject({ body: { ethUsd: null, valueUsd: null } })
    // A fresh round brings the figures back.
    await indexed.dev.write(devAccounts.treasury, indexed.manifest.contracts.EthUsdFeed, ours.EthUsdFeed.abi, 'update', [parseUnits('2999.5', 8)])
    await waitFor(async () => (await get('/pools')).body.ethUsd === '2999.5', 'ethUsd back with a fresh round')
  })
})
