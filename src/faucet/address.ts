import { zeroAddress, type Address } from 'viem'
import { parseAddress } from '../eth/address.ts'

/**
 * The address a drip or a status is asked for, checksummed; null when it is not one. The stack's
 * one rule for addresses (src/eth), around the JSON body's stray whitespace; the zero address is
 * refused because a drip to it would burn the funds.
 */
export function parseDripAddress(input: unknown): Address | null {
  const address = parseAddress(typeof input === 'string' ? input.trim() : input)
  return address === zeroAddress ? null : address
}
