import { getAddress, isAddress, zeroAddress, type Address } from 'viem'

/**
 * An account address from a caller, checksummed; null when it is not one. The 0x prefix may be
 * left out; a mixed-case address must carry a valid EIP-55 checksum (a wrong one is a typo);
 * the zero address is refused because a drip to it would burn the funds.
 */
export function parseAddress(input: unknown): Address | null {
  if (typeof input !== 'string') return null
  const text = input.trim()
  const prefixed = /^0x/i.test(text) ? `0x${text.slice(2)}` : `0x${text}`
  if (!/^0x[0-9a-fA-F]{40}$/.test(prefixed)) return null
  const hex = prefixed.slice(2)
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase()
  if (!singleCase && !isAddress(prefixed, { strict: true })) return null
  const address = getAddress(prefixed)
  return address === zeroAddress ? null : address
}
