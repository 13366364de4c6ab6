import { getAddress, type Address, type Hex } from 'viem'

/** 0x-hex → bytes for a BLOB column. */
export function blob(hex: Hex | string): Uint8Array {
  return Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex')
}

/** A BLOB column → 0x-hex (lower case). */
export function hex(bytes: Uint8Array | null | undefined): Hex | null {
  return bytes ? (`0x${Buffer.from(bytes).toString('hex')}` as Hex) : null
}

/** A 20-byte BLOB column → checksummed address. */
export function address(bytes: Uint8Array | null | undefined): Address | null {
  return bytes ? getAddress(`0x${Buffer.from(bytes).toString('hex')}`) : null
}

/** A hex quantity → number (block numbers, gas, indexes: all far below 2^53). */
export function quantity(value: Hex | string | null | undefined): number {
  return value ? Number.parseInt(value, 16) : 0
}

/** A hex quantity → decimal string (wei and other amounts: exact, never a float). */
export function decimal(value: Hex | string | null | undefined): string | null {
  return value === null || value === undefined ? null : BigInt(value).toString()
}

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
