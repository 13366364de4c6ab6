import type { SpoolTx } from '../../spool/engine.ts'
import { appendedRows } from '../../spool/kit/entities.ts'
import type { SpoolLog } from '../../spool/streams.ts'
import { clEvents } from '../events.ts'
import { addressTopic, addressWord, hexOf, int, intTopic, selectorOf, smallInt, uint } from '../../eth/words.ts'
import { emptyPool, emptyPosition, emptyTick, poolStates, positionStates, tickStates, type PoolState, type PositionState } from './state.ts'

const FEE_AMOUNT_ENABLED = clEvents.FeeAmountEnabled.head
const POOL_CREATED = clEvents.PoolCreated.head
const INITIALIZE = clEvents.Initialize.head
const SWAP = clEvents.Swap.head
const MINT = clEvents.Mint.head
const BURN = clEvents.Burn.head
const COLLECT = clEvents.Collect.head
const FLASH = clEvents.Flash.head
const COLLECT_PROTOCOL = clEvents.CollectProtocol.head

/**
 * Folds concentrated-liquidity logs, in chain order, into the cl tables, doing what the pool
 * contract does to its own books: ticks gain and lose gross and net liquidity, the active
 * liquidity moves with mints and burns inside the current range and is set by each swap,
 * balances move with mints, swaps, collects, flash fees and protocol-fee claims (a burn moves
 * no tokens). Only pools of the configured factory count. `factory` is 40 lower-case hex digits.
 */
export async function applyCl(tx: SpoolTx, logs: SpoolLog[], factory: string): Promise<void> {
  const pass = new ClPass(tx)
  for (const log of logs) {
    const event = selectorOf(log.topic0)
    if (event === FEE_AMOUNT_ENABLED || event === POOL_CREATED) {
      if (hexOf(log.address) === factory) await pass.factoryEvent(log, event)
      continue
    }
    const poolId = hexOf(log.address)
    const pool = await pass.pools.edit(poolId, [log.address], log.blockNumber)
    if (pool) await pass.poolEvent(log, event, poolId, pool) // else not a pool of our factory
  }
  pass.flush()
}

/** One pass's statements and the rows it holds, and what each event does to them. */
class ClPass {
  readonly pools: ReturnType<typeof poolStates>
  readonly ticks: ReturnType<typeof tickStates>
  readonly positions: ReturnType<typeof positionStates>

  private readonly tiers
  private readonly created
  private readonly swaps
  private readonly events

  constructor(tx: SpoolTx) {
    this.pools = poolStates(tx)
    this.ticks = tickStates(tx)
    this.positions = positionStates(tx)
    this.tiers = appendedRows(tx, 'INSERT INTO cl_tiers (fee, tick_spacing, enabled_block)')
    this.created = appendedRows(tx, 'INSERT INTO cl_pools (pool, token0, token1, fee, tick_spacing, created_block, created_tx, created_log)')
    this.swaps = appendedRows(tx, 'INSERT INTO cl_swaps (tx_id, log_index, block, pool, sender, recipient, amount0, amount1, sqrt_price_x96, liquidity, tick)')
    this.events = appendedRows(tx, 'INSERT INTO cl_events (tx_id, log_index, block, pool, kind, owner, sender, recipient, tick_lower, tick_upper, liquidity, amount0, amount1)')
  }

  /** Writes what the pass changed and appended. */
  flush(): void {
    this.pools.flush()
    this.ticks.flush()
    this.positions.flush()
    this.tiers.flush()
    this.created.flush()
    this.swaps.flush()
    this.events.flush()
  }

  /** A fee tier enabled or a pool created, by the configured factory. */
  async factoryEvent(log: SpoolLog, event: number): Promise<void> {
    const { blockNumber: block, data } = log
    if (event === FEE_AMOUNT_ENABLED) {
      this.tiers.add(intTopic(log.topic1), intTopic(log.topic2), block)
      return
    }
    const pool = addressWord(data, 1)
    this.created.add(pool, addressTopic(log.topic1), addressTopic(log.topic2), intTopic(log.topic3), smallInt(data, 0), block, log.txId, log.logIndex)
    await this.pools.edit(hexOf(pool), [pool], block, emptyPool)
  }

  /** An event of a pool of the factory, whose state (about to change in the log's block) is `pool`. */
  async poolEvent(log: SpoolLog, event: number, poolId: string, pool: PoolState): Promise<void> {
    const { data } = log
    switch (event) {
      case INITIALIZE:
        pool.sqrtPriceX96 = uint(data, 0)
        pool.tick = smallInt(data, 1)
        break
      case SWAP: {
        const amount0 = int(data, 0)
        const amount1 = int(data, 1)
        pool.sqrtPriceX96 = uint(data, 2)
        pool.liquidity = uint(data, 3)
        pool.tick = smallInt(data, 4)
        pool.balance0 += amount0
        pool.balance1 += amount1
        pool.swapCount++
        this.swaps.add(
          log.txId, log.logIndex, log.blockNumber, log.address, addressTopic(log.topic1), addressTopic(log.topic2),
          `${amount0}`, `${amount1}`, `${pool.sqrtPriceX96}`, `${pool.liquidity}`, pool.tick,
        )
        break
      }
      case MINT: {
        const { owner, lower, upper } = rangeOf(log)
        const amount = uint(data, 1)
        const amount0 = uint(data, 2)
        const amount1 = uint(data, 3)
        await this.moveRange(log, poolId, pool, lower, upper, amount)
        pool.balance0 += amount0
        pool.balance1 += amount1
        pool.mintCount++
        const held = await this.position(log, poolId, owner, lower, upper)
        held.liquidity += amount
        held.deposited0 += amount0
        held.deposited1 += amount1
        this.event(log, 'mint', owner, addressWord(data, 0), null, lower, upper, `${amount}`, `${amount0}`, `${amount1}`)
        break
      }
      case BURN: {
        const { owner, lower, upper } = rangeOf(log)
        const amount = uint(data, 0)
        const amount0 = uint(data, 1)
        const amount1 = uint(data, 2)
        await this.moveRange(log, poolId, pool, lower, upper, -amount)
        pool.burnCount++
        const held = await this.position(log, poolId, owner, lower, upper)
        held.liquidity -= amount
        held.withdrawn0 += amount0
        held.withdrawn1 += amount1
        // Only the position's owner can burn it, so the owner is also the sender.
        this.event(log, 'burn', owner, owner, null, lower, upper, `${-amount}`, `${-amount0}`, `${-amount1}`)
        break
      }
      case COLLECT: {
        const { owner, lower, upper } = rangeOf(log)
        const amount0 = uint(data, 1)
        const amount1 = uint(data, 2)
        pool.balance0 -= amount0
        pool.balance1 -= amount1
        pool.collectCount++
        const held = await this.position(log, poolId, owner, lower, upper)
        held.collected0 += amount0
        held.collected1 += amount1
        this.event(log, 'collect', owner, owner, addressWord(data, 0), lower, upper, null, `${-amount0}`, `${-amount1}`)
        break
      }
      case FLASH:
        pool.balance0 += uint(data, 2)
        pool.balance1 += uint(data, 3)
        break
      case COLLECT_PROTOCOL:
        pool.balance0 -= uint(data, 0)
        pool.balance1 -= uint(data, 1)
        break
    }
  }

  /** A mint (delta > 0) or burn (delta < 0) of a range: both ends, and the active liquidity if the range holds the price. */
  private async moveRange(log: SpoolLog, poolId: string, pool: PoolState, lower: number, upper: number, delta: bigint): Promise<void> {
    if (delta === 0n) return // a burn of nothing only pokes fees into the pool's books
    // Gross liquidity moves by delta at both ends; net by delta at the lower and against it at the upper.
    await this.moveTick(log, poolId, lower, delta, delta)
    await this.moveTick(log, poolId, upper, delta, -delta)
    if (inRange(pool, lower, upper)) pool.liquidity += delta
  }

  /** One end of a range gains (or loses) liquidity. */
  private async moveTick(log: SpoolLog, poolId: string, tick: number, gross: bigint, net: bigint): Promise<void> {
    const state = (await this.ticks.edit(`${poolId}:${tick}`, [log.address, tick], log.blockNumber, emptyTick))!
    state.liquidityGross += gross
    state.liquidityNet += net
  }

  /** The position (owner, lower, upper) of the log's pool, about to change at the log. */
  private async position(log: SpoolLog, poolId: string, owner: Uint8Array, lower: number, upper: number): Promise<PositionState> {
    const state = (await this.positions.edit(`${poolId}:${hexOf(owner)}:${lower}:${upper}`, [log.address, owner, lower, upper], log.blockNumber, emptyPosition))!
    state.lastBlock = log.blockNumber
    state.lastTx = log.txId
    state.lastLog = log.logIndex
    return state
  }

  /** A mint, burn or collect as a row of cl_events: amounts as decimal strings, signed from the pool's side. */
  private event(
    log: SpoolLog, kind: string, owner: Uint8Array, sender: Uint8Array | null, recipient: Uint8Array | null,
    lower: number, upper: number, liquidity: string | null, amount0: string, amount1: string,
  ): void {
    this.events.add(log.txId, log.logIndex, log.blockNumber, log.address, kind, owner, sender, recipient, lower, upper, liquidity, amount0, amount1)
  }
}

/** The position a Mint, Burn or Collect names in its topics: its owner and its range's ticks. */
function rangeOf(log: SpoolLog): { owner: Uint8Array; lower: number; upper: number } {
  return { owner: addressTopic(log.topic1), lower: intTopic(log.topic2), upper: intTopic(log.topic3) }
}

/** The pool's own test (UniswapV3Pool._modifyPosition): the range holds the current tick. */
function inRange(pool: PoolState, lower: number, upper: number): boolean {
  return pool.tick !== null && lower <= pool.tick && pool.tick < upper
}
