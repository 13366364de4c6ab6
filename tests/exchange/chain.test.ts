import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodePacked, erc20Abi, getAddress, keccak256, parseEther, parseUnits, type Abi, type Address } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { uniswap } from '../../src/devnet/artifacts.ts'
import { decodeEvents } from '../helpers/devChain.ts'
import { exchangeActivity } from './activity.ts'
import { indexedChain, type IndexedChain } from './helpers.ts'

// The index against the chain itself: every number the index derives from logs must be the
// number the real Uniswap contracts (npm artifacts, on anvil) answer when asked directly.

type Token = { address: Address; symbol: string | null; decimals: number | null }
type Pair = { pair: Address; token0: Token; token1: Token; reserve0: string; reserve1: string; reservesBlock: number; createdBlock: number; swapCount: number; volume0: string; volume1: string }
type Pool = { pool: Address; token0: Token; token1: Token; fee: number; tickSpacing: number; initialized: boolean; sqrtPriceX96: string; tick: number; activeLiquidity: string; balance0: string; balance1: string; swapCount: number }
type Position = {
  pool: Address; owner: Address; tickLower: number; tickUpper: number; liquidity: string
  deposited0: string; deposited1: string; withdrawn0: string; withdrawn1: string; collected0: string; collected1: string
  owed0: string; owed1: string; closed: boolean
}

let indexed: IndexedChain
beforeAll(async () => {
  indexed = await indexedChain()
})
afterAll(() => indexed?.stop())

const client = () => indexed.chain.publicClient
const read = <T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) => indexed.dev.read<T>(address, abi, functionName, args)
const V2 = uniswap.UniswapV2Pair.abi
const V3 = uniswap.UniswapV3Pool.abi

async function expectPairsEqualChain() {
  const { pools } = (await indexed.get<{ pools: Pair[] }>('/pools')).body
  const factory = indexed.manifest.contracts.UniswapV2Factory
  const count = await read<bigint>(factory, uniswap.UniswapV2Factory.abi, 'allPairsLength')
  const all = await Promise.all(Array.from({ length: Number(count) }, (_, index) => read<Address>(factory, uniswap.UniswapV2Factory.abi, 'allPairs', [BigInt(index)])))
  expect(pools.map((row) => row.pair).sort()).toEqual(all.sort())
  for (const row of pools) {
    const [reserve0, reserve1] = await read<[bigint, bigint, number]>(row.pair, V2, 'getReserves')
    expect([row.reserve0, row.reserve1]).toEqual([reserve0.toString(), reserve1.toString()])
    expect(row.token0.address).toBe(await read<Address>(row.pair, V2, 'token0'))
    expect(row.token1.address).toBe(await read<Address>(row.pair, V2, 'token1'))
    for (const token of [row.token0, row.token1]) {
      expect(token.symbol).toBe(await read<string>(token.address, erc20Abi, 'symbol'))
      expect(token.decimals).toBe(await read<number>(token.address, erc20Abi, 'decimals'))
    }
  }
  return pools
}

async function expectPoolsEqualChain() {
  const { pools } = (await indexed.get<{ pools: Pool[] }>('/cl/pools')).body
  expect(pools.length).toBeGreaterThan(0)
  for (const row of pools) {
    const [sqrtPriceX96, tick] = await read<[bigint, number]>(row.pool, V3, 'slot0')
    expect(row.sqrtPriceX96).toBe(sqrtPriceX96.toString())
    expect(row.tick).toBe(tick)
    expect(row.activeLiquidity).toBe((await read<bigint>(row.pool, V3, 'liquidity')).toString())
    expect(row.fee).toBe(await read<number>(row.pool, V3, 'fee'))
    expect(row.tickSpacing).toBe(await read<number>(row.pool, V3, 'tickSpacing'))
    expect(row.balance0).toBe((await read<bigint>(row.token0.address, erc20Abi, 'balanceOf', [row.pool])).toString())
    expect(row.balance1).toBe((await read<bigint>(row.token1.address, erc20Abi, 'balanceOf', [row.pool])).toString())
    const factory = indexed.manifest.contracts.UniswapV3Factory
    expect(await read<Address>(factory, uniswap.UniswapV3Factory.abi, 'getPool', [row.token0.address, row.token1.address, row.fee])).toBe(row.pool)
  }
  return pools
}

/** The pool's initialised ticks, found the way the pool itself finds them: through its tick bitmap. */
async function initialisedTicksOnChain(pool: Address, spacing: number): Promise<number[]> {
  const maxWord = Math.ceil(887272 / spacing / 256) + 1
  const words = Array.from({ length: 2 * maxWord + 1 }, (_, index) => index - maxWord)
  const bitmaps = await Promise.all(words.map((word) => read<bigint>(pool, V3, 'tickBitmap', [word])))
  const ticks: number[] = []
  words.forEach((word, index) => {
    for (let bit = 0; bit < 256; bit++) if ((bitmaps[index]! >> BigInt(bit)) & 1n) ticks.push((word * 256 + bit) * spacing)
  })
  return ticks
}

async function expectTicksEqualChain(pools: Pool[]) {
  for (const row of pools) {
    const { ticks } = (await indexed.get<{ ticks: Array<{ tick: number; liquidityGross: string; liquidityNet: string }> }>(`/cl/ticks?pool=${row.pool}`)).body
    expect(ticks.map((tick) => tick.tick)).toEqual(await initialisedTicksOnChain(row.pool, row.tickSpacing))
    for (const tick of ticks) {
      const [gross, net, , , , , , initialized] = await read<[bigint, bigint, ...unknown[]]>(row.pool, V3, 'ticks', [tick.tick])
      expect([tick.liquidityGross, tick.liquidityNet, initialized]).toEqual([gross.toString(), net.toString(), true])
    }
    // What the pool keeps as its liquidity is the sum of the nets at and below its tick.
    const active = ticks.filter((tick) => tick.tick <= row.tick).reduce((sum, tick) => sum + BigInt(tick.liquidityNet), 0n)
    expect(active.toString()).toBe(row.activeLiquidity)
  }
}

async function expectPositionsEqualChain() {
  const { positions } = (await indexed.get<{ positions: Position[] }>('/cl/positions?closed=1&limit=500')).body
  expect(positions.length).toBeGreaterThan(0)
  for (const row of positions) {
    const key = keccak256(encodePacked(['address', 'int24', 'int24'], [row.owner, row.tickLower, row.tickUpper]))
    const [liquidity, , , owed0, owed1] = await read<[bigint, bigint, bigint, bigint, bigint]>(row.pool, V3, 'positions', [key])
    expect(row.liquidity).toBe(liquidity.toString())
    // Closed: no liquidity and nothing owed, on the chain as in the index.
    expect(row.closed).toBe(liquidity === 0n && owed0 === 0n && owed1 === 0n)
    expect(row.closed).toBe(row.liquidity === '0' && row.owed0 === '0' && row.owed1 === '0')
    // What the logs see owed is the pool's owed without the fees no event shows: never more.
    expect([BigInt(row.owed0) <= owed0, BigInt(row.owed1) <= owed1]).toEqual([true, true])
  }
  return positions
}

async function nodeLogs(abi: Abi, address: Address[], eventName: string) {
  const logs = await client().getLogs({ address, fromBlock: 0n, toBlock: 'latest' })
  return decodeEvents(abi, logs, eventName)
}

async function expectListsEqualNodeLogs(pairs: Pair[], pools: Pool[]) {
  const v2Swaps = (await indexed.get<{ swaps: Array<Record<string, unknown>> }>('/swaps?limit=500')).body.swaps
  const nodeV2Swaps = await nodeLogs(V2, pairs.map((row) => row.pair), 'Swap')
  expect(v2Swaps).toEqual(
    nodeV2Swaps.reverse().map((log) => ({
      txHash: log.transactionHash,
      logIndex: log.logIndex,
      block: Number(log.blockNumber),
      pair: getAddress(log.address),
      sender: log.args.sender,
      recipient: log.args.to,
      amount0In: `${log.args.amount0In}`,
      amount1In: `${log.args.amount1In}`,
      amount0Out: `${log.args.amount0Out}`,
      amount1Out: `${log.args.amount1Out}`,
    })),
  )
  const clSwaps = (await indexed.get<{ swaps: Array<Record<string, unknown>> }>('/cl/swaps?limit=500')).body.swaps
  const nodeClSwaps = (await nodeLogs(V3, pools.map((row) => row.pool), 'Swap')).reverse()
  expect(clSwaps.map((swap) => [swap.txHash, swap.amount0, swap.amount1, swap.sqrtPriceX96, swap.liquidity, swap.tick])).toEqual(
    nodeClSwaps.map((log) => [log.transactionHash, `${log.args.amount0}`, `${log.args.amount1}`, `${log.args.sqrtPriceX96}`, `${log.args.liquidity}`, log.args.tick]),
  )
  for (const swap of clSwaps) expect(BigInt(swap.amount0 as string) < 0n !== BigInt(swap.amount1 as string) < 0n).toBe(true)
  const clEvents = (await indexed.get<{ events: Array<Record<string, unknown>> }>('/cl/events?limit=500')).body.events
  const sign = { Mint: 1n, Burn: -1n, Collect: -1n } as Record<string, bigint>
  const nodeEvents = (await client().getLogs({ address: pools.map((row) => row.pool), fromBlock: 0n, toBlock: 'latest' }))
    .map((log) => decodeEvents<Record<string, bigint>>(V3, [log])[0]!)
    .filter((log) => log.eventName in sign)
    .reverse()
  expect(clEvents.map((event) => [event.txHash, event.kind, event.amount0, event.amount1])).toEqual(
    nodeEvents.map((log) => [log.transactionHash, log.eventName.toLowerCase(), `${sign[log.eventName]! * log.args.amount0!}`, `${sign[log.eventName]! * log.args.amount1!}`]),
  )
}

async function expectIndexEqualsChain() {
  const pairs = await expectPairsEqualChain()
  const pools = await expectPoolsEqualChain()
  await expectTicksEqualChain(pools)
  await expectPositionsEqualChain()
  await expectListsEqualNodeLogs(pairs, pools)
}

describe('the index equals the chain', () => {
  test('on the seeded dev chain: reserves, slot0, liquidity, ticks, positions, balances, swaps and events', async () => {
    await expectIndexEqualsChain()
    const positions = (await indexed.get<{ positions: Position[] }>('/cl/positions?closed=1&limit=500')).body.positions
    // The seed closes one position for good and leaves the others open.
    expect(positions.filter((row) => row.closed).length).toBe(1)
  })

  test('after more swaps both ways, a new range across the price, a crossing swap and a partial exit', async () => {
    const { BX, WETH9, DUSD } = indexed.manifest.contracts
    const activity = exchangeActivity(indexed.dev)
    const { pools: pairs } = (await indexed.get<{ pools: Pair[] }>('/pools')).body
    const bxWeth = pairs.find((row) => [row.token0.address, row.token1.address].sort().join() === [BX, WETH9].sort().join())!
    await activity.v2Swap(bxWeth.pair, WETH9, parseEther('3'))
    await activity.v2Swap(bxWeth.pair, BX, parseEther('2000'), devAccounts.alice)
    const { pools } = (await indexed.get<{ pools: Pool[] }>('/cl/pools')).body
    const dusdWeth = pools.find((row) => row.fee === 500)!
    const key = await activity.poolKey(dusdWeth.pool)
    const base = Math.floor(key.tick / key.spacing) * key.spacing
    const tokenId = await activity.v3Mint(key, base - key.spacing, base + 2 * key.spacing, parseUnits('20000', 6), parseEther('7'))
    const dusdIsToken0 = key.token0 === DUSD
    await activity.v3Swap(key, WETH9, parseEther('12'))
    await activity.v3Swap(key, dusdIsToken0 ? key.token0 : key.token1, parseUnits('9000', 6), devAccounts.bob)
    await activity.v3Decrease(tokenId, 1n, 3n)
    await indexed.caughtUp()
    await expectIndexEqualsChain()
  })

  test('a position closed for good: liquidity and owed zero, its cumulative figures kept, its fees by subtraction', async () => {
    const { DUSD, WETH9, NonfungiblePositionManager: manager } = indexed.manifest.contracts
    const activity = exchangeActivity(indexed.dev)
    const { pools } = (await indexed.get<{ pools: Pool[] }>('/cl/pools')).body
    const pool = pools.find((row) => row.fee === 500)!
    const key = await activity.poolKey(pool.pool)
    // A range of its own (the manager owns every position it makes, keyed by range).
    const base = Math.floor(key.tick / key.spacing) * key.spacing
    const [tickLower, tickUpper] = [base - 7 * key.spacing, base + 11 * key.spacing]
    const tokenId = await activity.v3Mint(key, tickLower, tickUpper, parseUnits('30000', 6), parseEther('10'))
    // Swaps both ways inside the range earn fees on both sides.
    await activity.v3Swap(key, WETH9, parseEther('2'))
    await activity.v3Swap(key, DUSD, parseUnits('6000', 6), devAccounts.bob)
    const row = async () => {
      await indexed.caughtUp()
      const query = `/cl/positions?pool=${pool.pool}&owner=${manager}&closed=1&limit=500`
      return (await indexed.get<{ positions: Position[] }>(query)).body.positions.find((found) => found.tickLower === tickLower && found.tickUpper === tickUpper)!
    }
    const shown = async () => (await indexed.get<{ positions: Position[] }>(`/cl/positions?pool=${pool.pool}&limit=500`)).body.positions.some((found) => found.tickLower === tickLower && found.tickUpper === tickUpper)

    // Burnt, not yet collected: no liquidity, but owed what the burn credited, so still open.
    await activity.v3Burn(tokenId, 1n, 1n)
    const burnt = await row()
    expect(burnt).toMatchObject({ liquidity: '0', owed0: burnt.withdrawn0, owed1: burnt.withdrawn1, collected0: '0', collected1: '0', closed: false })
    expect(BigInt(burnt.owed0) > 0n && BigInt(burnt.owed1) > 0n).toBe(true)
    expect(await shown()).toBe(true)

    // Collected: closed, a row of zeroes where it stands, the cumulative figures as its events.
    await activity.v3Collect(tokenId)
    const closed = await row()
    expect(closed).toMatchObject({ liquidity: '0', owed0: '0', owed1: '0', closed: true })
    expect(await shown()).toBe(false)
    const logs = (await client().getLogs({ address: pool.pool, fromBlock: 0n, toBlock: 'latest' }))
      .map((log) => decodeEvents<Record<string, bigint | string | number>>(V3, [log])[0]!)
      .filter((log) => log.args.owner === manager && log.args.tickLower === tickLower && log.args.tickUpper === tickUpper)
    const sum = (eventName: string, field: string) => logs.filter((log) => log.eventName === eventName).reduce((total, log) => total + (log.args[field] as bigint), 0n).toString()
    expect(closed).toMatchObject({
      deposited0: sum('Mint', 'amount0'), deposited1: sum('Mint', 'amount1'),
      withdrawn0: sum('Burn', 'amount0'), withdrawn1: sum('Burn', 'amount1'),
      collected0: sum('Collect', 'amount0'), collected1: sum('Collect', 'amount1'),
    })
    expect([closed.withdrawn0, closed.withdrawn1]).toEqual([burnt.withdrawn0, burnt.withdrawn1])
    // Fees earned: what was collected beyond what the burns credited, on both sides.
    expect(BigInt(closed.collected0) - BigInt(closed.withdrawn0) > 0n).toBe(true)
    expect(BigInt(closed.collected1) - BigInt(closed.withdrawn1) > 0n).toBe(true)
    await expectPositionsEqualChain()
  })
})
