import type { Pool, PoolEvent, PoolSwap, Position, Tick, Tier } from '../../answers/exchange.ts'
import { owed } from '../cl/state.ts'
import type { EventKind } from '../http/params.ts'
import { poolPrice } from '../http/price.ts'
import type { TokenMeta } from '../http/tokens.ts'
import { eventId, newestEvents, where } from './filters.ts'
import { checksum, checksumOrNull } from '../../eth/address.ts'
import type { IndexReader } from './indexReader.ts'
import { tokenJson } from './tokenJson.ts'
import { wethSide } from './wethSide.ts'

/** A concentrated pool as stored: what it is and how its slot and balances stand. */
export type PoolRow = {
  pool: Uint8Array
  token0: Uint8Array
  token1: Uint8Array
  fee: number
  tick_spacing: number
  created_block: number
  sqrt_price_x96: string
  tick: number | null
  liquidity: string
  balance0: string
  balance1: string
  swap_count: number
  mint_count: number
  burn_count: number
  collect_count: number
}

const POOL_SELECT = `
  SELECT p.pool, p.token0, p.token1, p.fee, p.tick_spacing, p.created_block, s.sqrt_price_x96, s.tick, s.liquidity,
         s.balance0, s.balance1, s.swap_count, s.mint_count, s.burn_count, s.collect_count
    FROM cl_pools p JOIN cl_pool_state s ON s.pool = p.pool`

type PositionRow = {
  pool: Uint8Array; owner: Uint8Array; tick_lower: number; tick_upper: number; liquidity: string
  deposited0: string; deposited1: string; withdrawn0: string; withdrawn1: string; collected0: string; collected1: string
  last_block: number; closed: number
}
type SwapRow = {
  tx_id: number; log_index: number; block: number; pool: Uint8Array; sender: Uint8Array; recipient: Uint8Array
  amount0: string; amount1: string; sqrt_price_x96: string; liquidity: string; tick: number
}
type EventRow = {
  tx_id: number; log_index: number; block: number; pool: Uint8Array; kind: string; owner: Uint8Array
  sender: Uint8Array | null; recipient: Uint8Array | null; tick_lower: number; tick_upper: number
  liquidity: string | null; amount0: string; amount1: string
}

/** The concentrated tables, read for the `/cl/` routes. */
export function clQueries(index: IndexReader) {
  return {
    /** Most swapped first, like the constant-product list; the older pool first on a tie. */
    pools: () => index.all<PoolRow>(`${POOL_SELECT} ORDER BY s.swap_count DESC, p.created_tx, p.created_log`),
    pool: (address: Uint8Array) => index.get<PoolRow>(`${POOL_SELECT} WHERE p.pool = ?`, address),

    tiers: async (): Promise<Tier[]> =>
      (await index.all<{ fee: number; tick_spacing: number; enabled_block: number }>('SELECT fee, tick_spacing, enabled_block FROM cl_tiers ORDER BY fee')).map((row) => ({
        fee: row.fee,
        tickSpacing: row.tick_spacing,
        enabledBlock: row.enabled_block,
      })),

    /** Newest activity first; closed positions only when asked for. */
    positions: async (filter: { pool: Uint8Array | null; owner: Uint8Array | null; closed: boolean; limit: number }): Promise<Position[]> => {
      const clause = where([
        ['pool', filter.pool],
        ['owner', filter.owner],
        ['closed', filter.closed ? null : 0],
      ])
      const rows = await index.all<PositionRow>(
        `SELECT pool, owner, tick_lower, tick_upper, liquidity, deposited0, deposited1, withdrawn0, withdrawn1, collected0, collected1, last_block, closed
           FROM cl_positions ${clause.sql} ORDER BY last_tx DESC, last_log DESC, pool, owner, tick_lower, tick_upper LIMIT ?`,
        ...clause.params,
        filter.limit,
      )
      return rows.map((row) => ({
        pool: checksum(row.pool),
        owner: checksum(row.owner),
        tickLower: row.tick_lower,
        tickUpper: row.tick_upper,
        liquidity: row.liquidity,
        deposited0: row.deposited0,
        deposited1: row.deposited1,
        withdrawn0: row.withdrawn0,
        withdrawn1: row.withdrawn1,
        collected0: row.collected0,
        collected1: row.collected1,
        // Zero, with the liquidity, once the position is closed; the cumulative figures above stay.
        owed0: owed(BigInt(row.withdrawn0), BigInt(row.collected0)).toString(),
        owed1: owed(BigInt(row.withdrawn1), BigInt(row.collected1)).toString(),
        lastBlock: row.last_block,
        closed: row.closed === 1,
      }))
    },

    /** The initialised ticks of one pool, in tick order. */
    ticks: async (pool: Uint8Array): Promise<Tick[]> =>
      (
        await index.all<{ tick: number; liquidity_gross: string; liquidity_net: string }>(
          `SELECT tick, liquidity_gross, liquidity_net FROM cl_ticks WHERE pool = ? AND liquidity_gross != '0' ORDER BY tick`,
          pool,
        )
      ).map((row) => ({ tick: row.tick, liquidityGross: row.liquidity_gross, liquidityNet: row.liquidity_net })),

    swaps: async (filter: { pool: Uint8Array | null; sender: Uint8Array | null; limit: number }): Promise<PoolSwap[]> => {
      return (
        await newestEvents<SwapRow>(
          index,
          'cl_swaps',
          'tx_id, log_index, block, pool, sender, recipient, amount0, amount1, sqrt_price_x96, liquidity, tick',
          [
            ['pool', filter.pool],
            ['sender', filter.sender],
          ],
          filter.limit,
        )
      ).map((row) => ({
        ...eventId(row),
        pool: checksum(row.pool),
        sender: checksum(row.sender),
        recipient: checksum(row.recipient),
        amount0: row.amount0,
        amount1: row.amount1,
        sqrtPriceX96: row.sqrt_price_x96,
        liquidity: row.liquidity,
        tick: row.tick,
      }))
    },

    events: async (filter: { pool: Uint8Array | null; owner: Uint8Array | null; kind: EventKind | null; limit: number }): Promise<PoolEvent[]> => {
      return (
        await newestEvents<EventRow>(
          index,
          'cl_events',
          'tx_id, log_index, block, pool, kind, owner, sender, recipient, tick_lower, tick_upper, liquidity, amount0, amount1',
          [
            ['pool', filter.pool],
            ['owner', filter.owner],
            ['kind', filter.kind],
          ],
          filter.limit,
        )
      ).map((row) => ({
        ...eventId(row),
        pool: checksum(row.pool),
        kind: row.kind,
        owner: checksum(row.owner),
        sender: checksumOrNull(row.sender),
        recipient: checksumOrNull(row.recipient),
        tickLower: row.tick_lower,
        tickUpper: row.tick_upper,
        liquidity: row.liquidity,
        amount0: row.amount0,
        amount1: row.amount1,
      }))
    },

    positionCounts: async () =>
      (await index.get<{ open: number; closed: number }>('SELECT count(*) FILTER (WHERE closed = 0) AS open, count(*) FILTER (WHERE closed = 1) AS closed FROM cl_positions'))!,
    tierCount: async () => (await index.get<{ n: number }>('SELECT count(*) AS n FROM cl_tiers'))!.n,
  }
}

/**
 * The concentrated pool row (docs/exchange.md "Routes"). `weth` is the wrapped-ether token as 40 lower-case hex digits:
 * `wethBalanceWei` is the pool's balance of it, undoubled, or null for a pool without it.
 */
export function poolJson(row: PoolRow, tokens: Map<string, TokenMeta>, weth: string): Pool {
  const token0 = tokenJson(row.token0, tokens)
  const token1 = tokenJson(row.token1, tokens)
  const initialized = row.tick !== null
  return {
    pool: checksum(row.pool),
    token0,
    token1,
    fee: row.fee,
    tickSpacing: row.tick_spacing,
    initialized,
    sqrtPriceX96: row.sqrt_price_x96,
    tick: row.tick,
    activeLiquidity: row.liquidity,
    balance0: row.balance0,
    balance1: row.balance1,
    price: initialized ? poolPrice(BigInt(row.sqrt_price_x96), token0.decimals, token1.decimals) : null,
    wethBalanceWei: wethBalance(row, weth),
    createdBlock: row.created_block,
    swapCount: row.swap_count,
    mintCount: row.mint_count,
    burnCount: row.burn_count,
    collectCount: row.collect_count,
  }
}

export function wethBalance(row: PoolRow, weth: string): string | null {
  return wethSide(row.token0, row.token1, row.balance0, row.balance1, weth)
}
