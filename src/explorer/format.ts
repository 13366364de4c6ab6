import { getAddress, isAddress, type Address, type Hex } from 'viem'

/**
 * Checksumming hashes the address (keccak), which shows up when a list prints hundreds of them;
 * the same few thousand addresses recur, so the answers are remembered. The map is dropped
 * whole when it fills, which keeps it bounded without bookkeeping.
 */
const checksums = new Map<string, Address>()
const MAX_CHECKSUMS = 50_000

/** A 20-byte BLOB (or lower-case hex) as a checksummed address. */
export function checksum(address: Uint8Array | string): Address {
  const lower = typeof address === 'string' ? address.toLowerCase() : `0x${Buffer.from(address).toString('hex')}`
  let found = checksums.get(lower)
  if (!found) {
    if (checksums.size >= MAX_CHECKSUMS) checksums.clear()
    found = getAddress(lower)
    checksums.set(lower, found)
  }
  return found
}

export function checksumOrNull(address: Uint8Array | string | null | undefined): Address | null {
  return address ? checksum(address) : null
}

/** An address from a node's trace, checksummed; anything else (a frame without one) as it came. */
export function traceAddress(text: string | null): string | null {
  return text !== null && /^0x[0-9a-fA-F]{40}$/.test(text) ? checksum(text) : text
}

/** A BLOB column as 0x-hex. */
export function toHex(bytes: Uint8Array | null | undefined): Hex | null {
  return bytes ? (`0x${Buffer.from(bytes).toString('hex')}` as Hex) : null
}

/** 0x-hex as bytes for a query against a BLOB column. */
export function fromHex(hex: string): Uint8Array {
  return Buffer.from(hex.slice(2), 'hex')
}

/** An address as the caller wrote it, in any case; null when it is not one. */
export function parseAddress(text: string): Address | null {
  const candidate = text.startsWith('0x') || text.startsWith('0X') ? `0x${text.slice(2)}` : `0x${text}`
  if (!/^0x[0-9a-fA-F]{40}$/.test(candidate)) return null
  // A mixed-case address carries a checksum; a wrong one is a typo, not another address.
  const mixed = candidate !== candidate.toLowerCase() && candidate.slice(2) !== candidate.slice(2).toUpperCase()
  if (mixed && !isAddress(candidate, { strict: true })) return null
  return checksum(candidate.toLowerCase())
}

/** A 32-byte hash as written by the caller; null when it is not one. */
export function parseHash(text: string): Hex | null {
  return /^0x[0-9a-fA-F]{64}$/.test(text) ? (text.toLowerCase() as Hex) : null
}

/** Gas × price in wei, as a decimal string; null when the price is unknown. */
export function fee(gasUsed: number, price: string | null): string | null {
  return price === null ? null : (BigInt(gasUsed) * BigInt(price)).toString()
}

/** A hex quantity from the node as a decimal string (amounts never pass through a float). */
export function quantityToDecimal(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : BigInt(value).toString()
}

/** Turns bigints into decimal strings, deeply: decoded arguments go out as JSON. */
export function jsonSafe(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(jsonSafe)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, jsonSafe(inner)]))
  return value
}
