import type { Pair, PairEvent, PairSwap } from '../../answers/exchange.ts'
import type { TokenMeta } from '../http/tokens.ts'
import { eventId, newestEvents } from './filters.ts'
import { checksum, checksumOrNull } from '../../eth/address.ts'
import type { IndexReader } from './indexReader.ts'
import { tokenJson } from './tokenJson.ts'

/** A constant-product pair as stored: what it is and how it stands. */
export type PairRow = {
  pair: Uint8Array
  token0: Uint8Array
  token1: Uint8Array
  created_block: number
  reserve0: string
  reserve1: string
  reserves_block: number | null
  swap_count: number
  mint_count: number
  burn_count: number
  volume0: string
  volume1: string
}

const PAIR_SELECT = `
  SELECT p.pair, p.token0, p.token1, p.created_block, s.reserve0, s.reserve1, s.reserves_block,
         s.swap_count, s.mint_count, s.burn_count, s.volume0, s.volume1
    FROM v2_pairs p JOIN v2_pair_state s ON s.pair = p.pair`

type SwapRow = {
  tx_id: number; log_index: number; block: number; pair: Uint8Array; sender: Uint8Array; recipient: Uint8Array
  amount0_in: string; amount1_in: string; amount0_out: string; amount1_out: string
}
type LiquidityRow = {
  tx_id: number; log_index: number; block: number; pair: Uint8Array; kind: string; sender: Uint8Array
  recipient: Uint8Array | null; amount0: string; amount1: string
}

/** The constant-product tables, read for the routes; lists newest first where the spec says so. */
export function v2Queries(index: IndexReader) {
  return {
    /** `/pools` is ordered by swap count (most first; the older pair first on a tie). */
    pairs: () => index.all<PairRow>(`${PAIR_SELECT} ORDER BY s.swap_count DESC, p.created_tx, p.created_log`),
    pair: (address: Uint8Array) => index.get<PairRow>(`${PAIR_SELECT} WHERE p.pair = ?`, address),

    swaps: async (filter: { pair: Uint8Array | null; sender: Uint8Array | null; limit: number }): Promise<PairSwap[]> => {
      return (
        await newestEvents<SwapRow>(
          index,
          'v2_swaps',
          'tx_id, log_index, block, pair, sender, recipient, amount0_in, amount1_in, amount0_out, amount1_out',
          [
            ['pair', filter.pair],
            ['sender', filter.sender],
          ],
          filter.limit,
        )
      ).map((row) => ({
        ...eventId(row),
        pair: checksum(row.pair),
        sender: checksum(row.sender),
        recipient: checksum(row.recipient),
        amount0In: row.amount0_in,
        amount1In: row.amount1_in,
        amount0Out: row.amount0_out,
        amount1Out: row.amount1_out,
      }))
    },

    events: async (filter: { pair: Uint8Array | null; limit: number }): Promise<PairEvent[]> => {
      return (await newestEvents<LiquidityRow>(index, 'v2_liquidity', 'tx_id, log_index, block, pair, kind, sender, recipient, amount0, amount1', [['pair', filter.pair]], filter.limit)).map(
        (row) => ({
          ...eventId(row),
          pair: checksum(row.pair),
          kind: row.kind,
          sender: checksum(row.sender),
          recipient: checksumOrNull(row.recipient),
          amount0: row.amount0,
          amount1: row.amount1,
        }),
      )
    },

    /** Every token on either side of a pair, with the number of pairs it is in; most pairs first. */
    tokens: () =>
      index.all<{ token: Uint8Array; pools: number }>(
        `SELECT token, count(*) AS pools, min(created_tx) AS first FROM (
           SELECT token0 AS token, created_tx FROM v2_pairs UNION ALL SELECT token1, created_tx FROM v2_pairs
         ) sides GROUP BY token ORDER BY pools DESC, first, token`,
      ),
  }
}

/** The pair row (docs/exchange.md "Routes"), with both tokens' metadata. */
export function pairJson(row: PairRow, tokens: Map<string, TokenMeta>): Pair {
  return {
    pair: checksum(row.pair),
    token0: tokenJson(row.token0, tokens),
    token1: tokenJson(row.token1, tokens),
    reserve0: row.reserve0,
    reserve1: row.reserve1,
    reservesBlock: row.reserves_block,
    createdBlock: row.created_block,
    swapCount: row.swap_count,
    mintCount: row.mint_count,
    burnCount: row.burn_count,
    volume0: row.volume0,
    volume1: row.volume1,
  }
}
