/**
 * Transactions are keyed by an increasing number derived from their position, so rows are
 * written in key order (the spool's bulk inserts stay fast) and a repeated batch gets the same
 * keys. 2^20 transactions per block leaves room for 2^33 blocks within 2^53.
 */
export const TX_PER_BLOCK = 1 << 20

export function txId(blockNumber: number, txIndex: number): number {
  return blockNumber * TX_PER_BLOCK + txIndex
}

export function blockOfTxId(id: number): number {
  return Math.floor(id / TX_PER_BLOCK)
}
