import type { SpoolTx } from '../../spool/engine.ts'
import { appendedRows } from '../../spool/kit/entities.ts'
import type { SpoolLog } from '../../spool/streams.ts'
import { v2Events } from '../events.ts'
import { addressTopic, addressWord, hexOf, selectorOf, uint, uintDecimal } from '../../eth/words.ts'
import { emptyPairState, pairStates } from './pairState.ts'

const { PairCreated, Sync, Swap, Mint, Burn } = v2Events

/**
 * Folds constant-product logs, in chain order, into the v2 tables. Only pairs the configured
 * factory created count: a Swap or Sync from any other contract with the same signature is
 * ignored. `factory` is the factory address as 40 lower-case hex digits.
 */
export async function applyV2(tx: SpoolTx, logs: SpoolLog[], factory: string): Promise<void> {
  const states = pairStates(tx)
  const pairs = appendedRows(tx, 'INSERT INTO v2_pairs (pair, token0, token1, created_block, created_tx, created_log)')
  const swaps = appendedRows(tx, 'INSERT INTO v2_swaps (tx_id, log_index, block, pair, sender, recipient, amount0_in, amount1_in, amount0_out, amount1_out)')
  const liquidity = appendedRows(tx, 'INSERT INTO v2_liquidity (tx_id, log_index, block, pair, kind, sender, recipient, amount0, amount1)')

  for (const log of logs) {
    const topic = selectorOf(log.topic0)
    const { blockNumber: block, data } = log
    if (topic === PairCreated.head) {
      if (hexOf(log.address) !== factory) continue
      const pair = addressWord(data, 0)
      pairs.add(pair, addressTopic(log.topic1), addressTopic(log.topic2), block, log.txId, log.logIndex)
      await states.edit(hexOf(pair), [pair], block, emptyPairState)
      continue
    }
    const state = await states.edit(hexOf(log.address), [log.address], block)
    if (!state) continue // not a pair of our factory
    switch (topic) {
      case Sync.head:
        state.reserve0 = uint(data, 0)
        state.reserve1 = uint(data, 1)
        state.reservesBlock = block
        break
      case Swap.head: {
        const [in0, in1, out0, out1] = [uint(data, 0), uint(data, 1), uint(data, 2), uint(data, 3)]
        swaps.add(log.txId, log.logIndex, block, log.address, addressTopic(log.topic1), addressTopic(log.topic2), `${in0}`, `${in1}`, `${out0}`, `${out1}`)
        state.swapCount++
        state.volume0 += in0
        state.volume1 += in1
        break
      }
      case Mint.head:
        liquidity.add(log.txId, log.logIndex, block, log.address, 'mint', addressTopic(log.topic1), null, uintDecimal(data, 0), uintDecimal(data, 1))
        state.mintCount++
        break
      case Burn.head:
        liquidity.add(log.txId, log.logIndex, block, log.address, 'burn', addressTopic(log.topic1), addressTopic(log.topic2), uintDecimal(data, 0), uintDecimal(data, 1))
        state.burnCount++
        break
    }
  }
  states.flush()
  pairs.flush()
  swaps.flush()
  liquidity.flush()
}
