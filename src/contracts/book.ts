import type { Database } from 'bun:sqlite'
import type { Abi, Address } from 'viem'
import { checksum } from '../eth/address.ts'
import { verifiedContract, type MatchKind, type VerifiedContract } from '../spool/verified.ts'

/**
 * How the stack knows a contract's ABI and sources:
 * - `verified`: a verification of this address (Etherscan's API, Sourcify's, or the stack's own
 *   deployment under `stack dev`);
 * - `similar`: no verification of its own, but its runtime code (immutables and metadata masked)
 *   equals a verified contract's, every pair a factory makes (`via` names that contract);
 * - `artifact`: its runtime code matches a build artifact `stack dev` was given (`dev.artifacts`).
 */
export type KnownBy =
  | { kind: 'verified'; match: MatchKind; verification: VerifiedContract }
  | { kind: 'similar'; match: MatchKind; via: Address; verification: VerifiedContract }
  | { kind: 'artifact'; match: MatchKind; path: string; sources: Record<string, string> | null }

/** A proxy read from the chain, with the contract its calls go to. */
export type ProxyInfo = {
  kind: 'eip1967' | 'eip1967-beacon' | 'eip1822' | 'eip1167'
  implementation: Address
  /** The implementation as the book knows it; null when it is not known. */
  target: KnownContract | null
}

export type KnownContract = {
  address: Address
  name: string
  abi: Abi
  by: KnownBy
  /** Set when the address is a proxy: decode its calls with the target's ABI as well. */
  proxy: ProxyInfo | null
}

/**
 * The one place that says what the stack knows of a contract; the explorer (decoding, the
 * Code, Read and Write tabs) and the Etherscan-compatible API ask it. It reads the spool's
 * verifications; a lookup that needs the chain (the same-code rule, proxies) reads the node.
 */
export type ContractBook = {
  /** What is known of `address`, or null. */
  lookup: (address: string) => Promise<KnownContract | null>
}

/** A book over the spool's verifications of each address. */
export function createContractBook(reader: Database): ContractBook {
  return {
    async lookup(address) {
      const verification = verifiedContract(reader, address)
      if (!verification) return null
      return { address: checksum(address), name: verification.name, abi: verification.details.abi as Abi, by: { kind: 'verified', match: verification.match, verification }, proxy: null }
    },
  }
}
