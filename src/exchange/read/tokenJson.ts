import type { Address } from 'viem'
import type { TokenMeta } from '../http/tokens.ts'
import { checksum } from '../../eth/address.ts'

/** A pool side's token as both families show it: the address with its symbol and decimals. */
export function tokenJson(bytes: Uint8Array, tokens: Map<string, TokenMeta>): { address: Address; symbol: string | null; decimals: number | null } {
  const address = checksum(bytes)
  const meta = tokens.get(address.toLowerCase())
  return { address, symbol: meta?.symbol ?? null, decimals: meta?.decimals ?? null }
}

/** The tokens a list of rows needs metadata for. */
export function tokensOf(rows: Array<{ token0: Uint8Array; token1: Uint8Array }>): Address[] {
  return rows.flatMap((row) => [checksum(row.token0), checksum(row.token1)])
}
