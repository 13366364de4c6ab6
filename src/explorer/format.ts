import { checksum } from '../eth/address.ts'

/** An address from a node's trace, checksummed; anything else (a frame without one) as it came. */
export function traceAddress(text: string | null): string | null {
  return text !== null && /^0x[0-9a-fA-F]{40}$/.test(text) ? checksum(text) : text
}

/** Gas × price in wei, as a decimal string; null when the price is unknown. */
export function fee(gasUsed: number, price: string | null): string | null {
  return price === null ? null : (BigInt(gasUsed) * BigInt(price)).toString()
}
