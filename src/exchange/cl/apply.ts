import type { Database } from 'bun:sqlite'
import type { SpoolLog } from '../../spool/streams.ts'
import { clEvents } from '../events.ts'
import { addressTopic, addressWord, hexOf, int, intTopic, smallInt, uint } from '../../eth/words.ts'
import { emptyPool, emptyPosition, emptyTick, poolStates, positionStates, tickStates, type PoolState } from './state.ts'

const E = clEvents

/**
 * Folds concentrated-liquidity logs, in chain order, into the cl tables, doing what the pool
 * contract does to its own books: ticks gain and lose gross and net liquidity, the active
 * liquidity moves with mints and burns inside the current range and is set by each swap,
 * balances move with mints, swaps, collects, flash fees and protocol-fee claims (a burn moves
 * no tokens). Only pools of the configured factory count. `factory` is 40 lower-case hex digits.
 */
export function applyCl(db: Database, logs: SpoolLog[], factory: string): void {
  const pools = poolStates(db)
  const ticks = tickStates(db)
  const positions = positionStates(db)
  const insertTier = db.query('INSERT INTO cl_tiers (fee, tick_spacing, enabled_block) VALUES (?, ?, ?)')
  const insertPool = db.query(
    'INSERT INTO cl_pools (pool, token0, token1, fee, tick_spacing, created_block, created_tx, created_log) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const insertSwap = db.query(
    `INSERT INTO cl_swaps (tx_id, log_index, block, pool, sender, recipient, amount0, amount1, sqrt_price_x96, liquidity, tick)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const insertEvent = db.query(
    `INSERT INTO cl_events (tx_id, log_index, block, pool, kind, owner, sender, recipient, tick_lower, tick_upper, liquidity, amount0, amount1)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )

  for (const log of logs) {
    const topic = log.topic0 ? hexOf(log.topic0) : ''
    const { blockNumber: block, data, address } = log
    if (topic === E.FeeAmountEnabled.key || topic === E.PoolCreated.key) {
      if (hexOf(address) !== factory) continue
      if (topic === E.FeeAmountEnabled.key) {
        insertTier.run(intTopic(log.topic1), intTopic(log.topic2), block)
      } else {
        const pool = addressWord(data, 1)
        insertPool.run(pool, addressTopic(log.topic1), addressTopic(log.topic2), intTopic(log.topic3), smallInt(data, 0), block, log.txId, log.logIndex)
        pools.edit(hexOf(pool), [pool], block, emptyPool)
      }
      continue
    }

    const poolId = hexOf(address)
    const pool = pools.edit(poolId, [address], block)
    if (!pool) continue // not a pool of our factory

    /** One end of a range gains (or loses) `delta` of liquidity. */
    const moveTick = (tick: number, gross: bigint, net: bigint) => {
      const state = ticks.edit(`${poolId}:${tick}`, [address, tick], block, emptyTick)!
      state.liquidityGross += gross
      state.liquidityNet += net
    }
    /** A mint (delta > 0) or burn (delta < 0) of a range: both ends, and the active liquidity if the range holds the price. */
    const moveRange = (lower: number, upper: number, delta: bigint) => {
      if (delta === 0n) return // a burn of nothing only pokes fees into the pool's books
      const size = delta < 0n ? -delta : delta
      moveTick(lower, delta < 0n ? -size : size, delta)
      moveTick(upper, delta < 0n ? -size : size, -delta)
      if (inRange(pool, lower, upper)) pool.liquidity += delta
    }
    const position = (owner: Uint8Array, lower: number, upper: number) => {
      const state = positions.edit(`${poolId}:${hexOf(owner)}:${lower}:${upper}`, [address, owner, lower, upper], block, emptyPosition)!
      state.lastBlock = block
      state.lastTx = log.txId
      state.lastLog = log.logIndex
      return state
    }
    const event = (kind: string, owner: Uint8Array, sender: Uint8Array | null, recipient: Uint8Array | null, lower: number, upper: number, liquidity: bigint | null, amount0: bigint, amount1: bigint) =>
      insertEvent.run(log.txId, log.logIndex, block, address, kind, owner, sender, recipient, lower, upper, liquidity === null ? null : `${liquidity}`, `${amount0}`, `${amount1}`)

    switch (topic) {
      case E.Initialize.key:
        pool.sqrtPriceX96 = uint(data, 0)
        pool.tick = smallInt(data, 1)
        break
      case E.Swap.key: {
        const [amount0, amount1] = [int(data, 0), int(data, 1)]
        pool.sqrtPriceX96 = uint(data, 2)
        pool.liquidity = uint(data, 3)
        pool.tick = smallInt(data, 4)
        pool.balance0 += amount0
        pool.balance1 += amount1
        pool.swapCount++
        insertSwap.run(log.txId, log.logIndex, block, address, addressTopic(log.topic1), addressTopic(log.topic2), `${amount0}`, `${amount1}`, `${pool.sqrtPriceX96}`, `${pool.liquidity}`, pool.tick)
        break
      }
      case E.Mint.key: {
        const [owner, lower, upper] = [addressTopic(log.topic1), intTopic(log.topic2), intTopic(log.topic3)]
        const [amount, amount0, amount1] = [uint(data, 1), uint(data, 2), uint(data, 3)]
        moveRange(lower, upper, amount)
        pool.balance0 += amount0
        pool.balance1 += amount1
        pool.mintCount++
        const held = position(owner, lower, upper)
        held.liquidity += amount
        held.deposited0 += amount0
        held.deposited1 += amount1
        event('mint', owner, addressWord(data, 0), null, lower, upper, amount, amount0, amount1)
        break
      }
      case E.Burn.key: {
        const [owner, lower, upper] = [addressTopic(log.topic1), intTopic(log.topic2), intTopic(log.topic3)]
        const [amount, amount0, amount1] = [uint(data, 0), uint(data, 1), uint(data, 2)]
        moveRange(lower, upper, -amount)
        pool.burnCount++
        const held = position(owner, lower, upper)
        held.liquidity -= amount
        held.withdrawn0 += amount0
        held.withdrawn1 += amount1
        // Only the position's owner can burn it, so the owner is also the sender.
        event('burn', owner, owner, null, lower, upper, -amount, -amount0, -amount1)
        break
      }
      case E.Collect.key: {
        const [owner, lower, upper] = [addressTopic(log.topic1), intTopic(log.topic2), intTopic(log.topic3)]
        const [amount0, amount1] = [uint(data, 1), uint(data, 2)]
        pool.balance0 -= amount0
        pool.balance1 -= amount1
        pool.collectCount++
        const held = position(owner, lower, upper)
        held.collected0 += amount0
        held.collected1 += amount1
        event('collect', owner, owner, addressWord(data, 0), lower, upper, null, -amount0, -amount1)
        break
      }
      case E.Flash.key:
        pool.balance0 += uint(data, 2)
        pool.balance1 += uint(data, 3)
        break
      case E.CollectProtocol.key:
        pool.balance0 -= uint(data, 0)
        pool.balance1 -= uint(data, 1)
        break
    }
  }
  pools.flush()
  ticks.flush()
  positions.flush()
}

/** The pool's own test (UniswapV3Pool._modifyPosition): the range holds the current tick. */
function inRange(pool: PoolState, lower: number, upper: number): boolean {
  return pool.tick !== null && lower <= pool.tick && pool.tick < upper
}
