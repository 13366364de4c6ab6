import { checksumAddress, isAddress, type Address } from 'viem'

const FORTY_HEX_DIGITS = /^[0-9a-fA-F]{40}$/

/**
 * An address as a caller wrote it, checksummed; null when it is not one. The one rule of every
 * service: the `0x` may be left out (docs/exchange.md); all lower-case and all upper-case carry no
 * checksum and are taken as they are; mixed case must be a correct EIP-55 checksum, since a
 * wrong one is a typo, not another address.
 */
export function parseAddress(text: unknown): Address | null {
  if (typeof text !== 'string') return null
  const digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text
  if (!FORTY_HEX_DIGITS.test(digits)) return null
  const lower = digits.toLowerCase()
  const mixed = digits !== lower && digits !== digits.toUpperCase()
  if (mixed && !isAddress(`0x${digits}`, { strict: true })) return null
  return checksumAddress(`0x${lower}`)
}

/**
 * An address as the config writes it: `0x` and 40 hex digits, and a mixed-case address must
 * carry a correct EIP-55 checksum (all lower or all upper case carries none). Checked when the
 * stack starts, so that a typo fails there, naming the key, rather than later inside viem.
 */
export function parseConfigAddress(text: unknown): Address | null {
  return typeof text === 'string' && text.startsWith('0x') ? parseAddress(text) : null
}

/**
 * An address written in any case, checksum or not, with or without `0x`; null when it is not 40
 * hex digits. Only where a rule says an address is matched case-insensitively (the exchange
 * index's paths); everything else takes `parseAddress`, so that a mistyped address is refused.
 */
export function parseAddressAnyCase(text: unknown): Address | null {
  if (typeof text !== 'string') return null
  return parseAddress(text.toLowerCase())
}

/**
 * An address the stack already trusts (a 20-byte BLOB of the spool, a node's answer, a config
 * value checked at start) in its EIP-55 form. viem's checksum is cached, so a list that prints
 * the same few addresses hundreds of times hashes each once.
 */
export function checksum(address: Uint8Array | string): Address {
  const lower = typeof address === 'string' ? address.toLowerCase() : `0x${Buffer.from(address).toString('hex')}`
  return checksumAddress(lower as Address)
}

export function checksumOrNull(address: Uint8Array | string | null | undefined): Address | null {
  return address ? checksum(address) : null
}

/**
 * An address as the streams and queries compare it: 40 lower-case hex digits, no `0x`. From a
 * text the stack already trusts or from the 20 bytes of a spool BLOB.
 */
export function addressKey(address: Uint8Array | string): string {
  return typeof address === 'string' ? address.slice(2).toLowerCase() : Buffer.from(address).toString('hex')
}
