import type { SpoolTx, SqlValue } from '../../spool/engine.ts'
import { Entities } from '../../spool/kit/entities.ts'
import { versionedTable } from '../../spool/kit/tables.ts'

/** A pair's changing state, as the fold keeps it. */
export type PairState = {
  reserve0: bigint
  reserve1: bigint
  reservesBlock: number | null
  swapCount: number
  mintCount: number
  burnCount: number
  volume0: bigint
  volume1: bigint
}

export const emptyPairState = (): PairState => ({
  reserve0: 0n,
  reserve1: 0n,
  reservesBlock: null,
  swapCount: 0,
  mintCount: 0,
  burnCount: 0,
  volume0: 0n,
  volume1: 0n,
})

/** How each pair stands, versioned per block (v2_pair_state and its history). */
export const pairStateTable = versionedTable({
  table: 'v2_pair_state',
  keys: ['pair'],
  columns: ['reserve0', 'reserve1', 'reserves_block', 'swap_count', 'mint_count', 'burn_count', 'volume0', 'volume1'],
})

const encode = (state: PairState): SqlValue[] => [
  state.reserve0.toString(),
  state.reserve1.toString(),
  state.reservesBlock,
  state.swapCount,
  state.mintCount,
  state.burnCount,
  state.volume0.toString(),
  state.volume1.toString(),
]

const decode = (row: Record<string, unknown>): PairState => ({
  reserve0: BigInt(row.reserve0 as string),
  reserve1: BigInt(row.reserve1 as string),
  reservesBlock: row.reserves_block as number | null,
  swapCount: row.swap_count as number,
  mintCount: row.mint_count as number,
  burnCount: row.burn_count as number,
  volume0: BigInt(row.volume0 as string),
  volume1: BigInt(row.volume1 as string),
})

export const pairStates = (tx: SpoolTx) => new Entities<PairState>(tx, pairStateTable, encode, decode)
