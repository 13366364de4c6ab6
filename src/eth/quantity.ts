import type { Hex } from 'viem'

/** A hex quantity of the node as a number (block numbers, gas, indexes: all far below 2^53); 0 when absent. */
export function quantity(value: Hex | string | null | undefined): number {
  return value ? Number.parseInt(value, 16) : 0
}

/** A hex quantity as a number, where the node may answer none: null stays null. */
export function quantityOrNull(value: Hex | string | null | undefined): number | null {
  return value === null || value === undefined ? null : quantity(value)
}

/** A hex quantity as a bigint, for arithmetic on wei and other amounts; 0n when absent. */
export function bigQuantity(value: Hex | string | null | undefined): bigint {
  return value ? BigInt(value) : 0n
}

/** A hex quantity as a decimal string (wei and other amounts: exact, never through a float); null stays null. */
export function decimal(value: Hex | string | null | undefined): string | null {
  return value === null || value === undefined ? null : BigInt(value).toString()
}

/** Bigints as decimal strings, deeply: decoded arguments and events go out as JSON. */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(jsonSafe)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, jsonSafe(inner)]))
  return value
}
