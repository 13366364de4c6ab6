import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEther, type Address } from 'viem'
import type { Config } from '../../src/config/load.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { uniswap } from '../../src/devnet/artifacts.ts'
import type { Manifest } from '../../src/devnet/deploy.ts'
import { sqrtPriceX96 } from '../../src/devnet/seed.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { spoolConfig } from '../spool/helpers.ts'
import { exchangeActivity, type ExchangeActivity } from './activity.ts'
import { runFollower } from './follower.ts'
import { dumpExchange } from './helpers.ts'

// A reorganisation must leave the exchange tables exactly as a run that never saw the orphaned
// blocks: the index after each rollback is compared, table by table and row by row, with one
// derived from scratch over the chain as it now is, and with the chain's own answers.

let chain: DevChain
let manifest: Manifest
let config: Config
let activity: ExchangeActivity
let index: ReturnType<typeof runFollower>

beforeAll(async () => {
  ;({ manifest } = chain = await startDevChain())
  config = spoolConfig(chain.rpcUrl, chain.wsUrl)
  activity = exchangeActivity(chain)
  // Passes of 7 logs: many passes, most ending inside a block.
  index = runFollower(config, join(mkdtempSync(join(tmpdir(), 'stack-exchange-reorg-')), 'spool.db'), { maxLogsPerPass: 7 })
  await index.caughtUp()
})
afterAll(async () => {
  await index?.stop()
  await chain?.stop()
})

/** The index as it stands equals a fresh derivation over the same chain. */
async function expectSameAsFreshRun() {
  const head = await index.caughtUp()
  const fresh = runFollower(config, join(mkdtempSync(join(tmpdir(), 'stack-exchange-fresh-')), 'spool.db'))
  try {
    expect(await fresh.caughtUp()).toBe(head)
    expect(dumpExchange(index.reader)).toEqual(dumpExchange(fresh.reader))
  } finally {
    await fresh.stop()
  }
}

/** Reserves, slot0 and active liquidity of every derived pair and pool equal the chain's. */
async function expectStateEqualsChain() {
  const { read } = chain
  const pairs = index.reader.query<{ pair: Uint8Array; reserve0: string; reserve1: string }, []>('SELECT pair, reserve0, reserve1 FROM v2_pair_state').all()
  for (const row of pairs) {
    const [reserve0, reserve1] = await read<[bigint, bigint]>(`0x${Buffer.from(row.pair).toString('hex')}` as Address, uniswap.UniswapV2Pair.abi, 'getReserves')
    expect([row.reserve0, row.reserve1]).toEqual([`${reserve0}`, `${reserve1}`])
  }
  const pools = index.reader.query<{ pool: Uint8Array; sqrt_price_x96: string; tick: number; liquidity: string }, []>('SELECT pool, sqrt_price_x96, tick, liquidity FROM cl_pool_state').all()
  for (const row of pools) {
    const address = `0x${Buffer.from(row.pool).toString('hex')}` as Address
    const [sqrtPrice, tick] = await read<[bigint, number]>(address, uniswap.UniswapV3Pool.abi, 'slot0')
    expect([row.sqrt_price_x96, row.tick, row.liquidity]).toEqual([`${sqrtPrice}`, tick, `${await read<bigint>(address, uniswap.UniswapV3Pool.abi, 'liquidity')}`])
  }
  return { pairs: pairs.length, pools: pools.length }
}

const hexAddress = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}` as Address

/** Everything a rollback has to undo: a fee tier, a pair, a pool, swaps, a new range, a crossing swap, an exit. */
async function busyBlocks(seed: number) {
  const { BX, WETH9 } = manifest.contracts
  await activity.enableFeeTier(100 * seed, seed)
  const token = await activity.deployToken(`T${seed}`, 18)
  await activity.createPair(token, WETH9, parseEther(`${1000 * seed}`), parseEther(`${seed}`))
  const firstPair = index.reader.query<{ pair: Uint8Array }, []>('SELECT pair FROM v2_pairs ORDER BY created_tx LIMIT 1').get()!
  await activity.v2Swap(hexAddress(firstPair.pair), WETH9, parseEther(`${seed}`), devAccounts.bob)
  const bxFirst = BX.toLowerCase() < WETH9.toLowerCase()
  await activity.createPool({ token0: bxFirst ? BX : WETH9, token1: bxFirst ? WETH9 : BX, fee: 10000 }, bxFirst ? sqrtPriceX96(1000n, 1n) : sqrtPriceX96(1n, 1000n))
  const pool = await activity.poolKey(hexAddress(index.reader.query<{ pool: Uint8Array }, []>('SELECT pool FROM cl_pools WHERE fee = 3000').get()!.pool))
  const base = Math.floor(pool.tick / pool.spacing) * pool.spacing
  const tokenId = await activity.v3Mint(pool, base - pool.spacing * seed, base + pool.spacing, parseEther('3000'), parseEther('3'))
  await activity.v3Swap(pool, WETH9, parseEther(`${2 * seed}`))
  await activity.v3Decrease(tokenId, 1n, 1n)
}

describe('reorganisations', () => {
  test('anvil_reorg drops the blocks that made a pair, a pool, swaps and positions: all of it is rolled back', async () => {
    const before = await expectStateEqualsChain()
    const startHead = await index.caughtUp()
    await busyBlocks(2)
    const busyHead = await index.caughtUp()
    const during = await expectStateEqualsChain()
    expect(during.pairs).toBe(before.pairs + 1)
    expect(during.pools).toBe(before.pools + 1)
    // Replace every busy block with an empty one.
    await chain.reorg(busyHead - startHead)
    await index.caughtUp()
    expect(await expectStateEqualsChain()).toEqual(before)
    await expectSameAsFreshRun()
  })

  test('evm_revert to a snapshot, then different blocks: the index follows the new chain exactly', async () => {
    const snapshot = await chain.test.snapshot()
    await busyBlocks(3)
    await index.caughtUp()
    await chain.test.revert({ id: snapshot })
    await busyBlocks(1)
    await index.caughtUp()
    await expectStateEqualsChain()
    await expectSameAsFreshRun()
  })
})
