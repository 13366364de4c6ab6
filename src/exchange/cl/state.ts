import type { SpoolTx, SqlValue } from '../../spool/engine.ts'
import { Entities } from '../../spool/kit/entities.ts'
import { versionedTable } from '../../spool/kit/tables.ts'

// The three kinds of changing row the concentrated stream keeps, each versioned per block so a
// rollback restores them exactly (the spool's stream kit).

export type PoolState = {
  sqrtPriceX96: bigint
  /** null until Initialize. */
  tick: number | null
  /** Liquidity active at the current tick. */
  liquidity: bigint
  balance0: bigint
  balance1: bigint
  swapCount: number
  mintCount: number
  burnCount: number
  collectCount: number
}

export type TickState = { liquidityGross: bigint; liquidityNet: bigint }

export type PositionState = {
  liquidity: bigint
  deposited0: bigint
  deposited1: bigint
  withdrawn0: bigint
  withdrawn1: bigint
  collected0: bigint
  collected1: bigint
  lastBlock: number
  lastTx: number
  lastLog: number
}

export const emptyPool = (): PoolState => ({
  sqrtPriceX96: 0n,
  tick: null,
  liquidity: 0n,
  balance0: 0n,
  balance1: 0n,
  swapCount: 0,
  mintCount: 0,
  burnCount: 0,
  collectCount: 0,
})
export const emptyTick = (): TickState => ({ liquidityGross: 0n, liquidityNet: 0n })
export const emptyPosition = (): PositionState => ({
  liquidity: 0n,
  deposited0: 0n,
  deposited1: 0n,
  withdrawn0: 0n,
  withdrawn1: 0n,
  collected0: 0n,
  collected1: 0n,
  lastBlock: 0,
  lastTx: 0,
  lastLog: 0,
})

/**
 * What a position is still owed on one side, as far as the logs see: what its burns credited
 * that no collect has paid out yet (collects pay fees too, so never below zero). Fees owed are in
 * no event (a burn of zero pokes them into the pool's books silently), so the pool may owe more.
 */
export const owed = (withdrawn: bigint, collected: bigint): bigint => (withdrawn > collected ? withdrawn - collected : 0n)

/**
 * A position is closed when it holds no liquidity and is owed nothing: its row then shows
 * liquidity and owed at zero, and keeps its cumulative deposited, withdrawn and collected
 * figures, from which a closed position's fees are found by subtraction.
 */
export const isClosed = (position: PositionState) =>
  position.liquidity === 0n && owed(position.withdrawn0, position.collected0) === 0n && owed(position.withdrawn1, position.collected1) === 0n

const big = (value: unknown) => BigInt(value as string)

export const poolStateTable = versionedTable({
  table: 'cl_pool_state',
  keys: ['pool'],
  columns: ['sqrt_price_x96', 'tick', 'liquidity', 'balance0', 'balance1', 'swap_count', 'mint_count', 'burn_count', 'collect_count'],
})
export const tickTable = versionedTable({ table: 'cl_ticks', keys: ['pool', 'tick'], columns: ['liquidity_gross', 'liquidity_net'] })
export const positionTable = versionedTable({
  table: 'cl_positions',
  keys: ['pool', 'owner', 'tick_lower', 'tick_upper'],
  columns: ['liquidity', 'deposited0', 'deposited1', 'withdrawn0', 'withdrawn1', 'collected0', 'collected1', 'last_block', 'last_tx', 'last_log', 'closed'],
})

export const poolStates = (tx: SpoolTx) =>
  new Entities<PoolState>(
    tx,
    poolStateTable,
    (s): SqlValue[] => [`${s.sqrtPriceX96}`, s.tick, `${s.liquidity}`, `${s.balance0}`, `${s.balance1}`, s.swapCount, s.mintCount, s.burnCount, s.collectCount],
    (row) => ({
      sqrtPriceX96: big(row.sqrt_price_x96),
      tick: row.tick as number | null,
      liquidity: big(row.liquidity),
      balance0: big(row.balance0),
      balance1: big(row.balance1),
      swapCount: row.swap_count as number,
      mintCount: row.mint_count as number,
      burnCount: row.burn_count as number,
      collectCount: row.collect_count as number,
    }),
  )

export const tickStates = (tx: SpoolTx) =>
  new Entities<TickState>(
    tx,
    tickTable,
    (s) => [`${s.liquidityGross}`, `${s.liquidityNet}`],
    (row) => ({ liquidityGross: big(row.liquidity_gross), liquidityNet: big(row.liquidity_net) }),
  )

export const positionStates = (tx: SpoolTx) =>
  new Entities<PositionState>(
    tx,
    positionTable,
    (s) => [
      `${s.liquidity}`, `${s.deposited0}`, `${s.deposited1}`, `${s.withdrawn0}`, `${s.withdrawn1}`, `${s.collected0}`, `${s.collected1}`,
      s.lastBlock, s.lastTx, s.lastLog, isClosed(s) ? 1 : 0,
    ],
    (row) => ({
      liquidity: big(row.liquidity),
      deposited0: big(row.deposited0),
      deposited1: big(row.deposited1),
      withdrawn0: big(row.withdrawn0),
      withdrawn1: big(row.withdrawn1),
      collected0: big(row.collected0),
      collected1: big(row.collected1),
      lastBlock: row.last_block as number,
      lastTx: row.last_tx as number,
      lastLog: row.last_log as number,
    }),
  )
