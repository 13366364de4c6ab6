import type { Address } from 'viem'

// What a verification proves of a contract, as the spool keeps it and as the stack's own
// deployment writes it (the dev chain knows no spool): types only, one declaration for both.

/** How closely compiled code equals the chain's: all of it, or all but the metadata's bytes. */
export type MatchKind = 'exact_match' | 'match'

/** How a contract came to be verified: Etherscan's API, Sourcify's, or the stack's own deployment. */
export type VerificationOrigin = 'etherscan' | 'sourcify' | 'stack'

/** What a verification keeps beyond the columns: everything the API and the pages show of it. */
export type VerifiedDetails = {
  abi: readonly unknown[]
  /** Source path to content, as the compiler saw them. */
  sources: Record<string, string>
  /** `path:Name` in the sources. */
  contractIdentifier: string
  optimizer: { enabled: boolean; runs: number }
  evmVersion: string | null
  /** `path:Name` (or `Name`) of each linked library to its address. */
  libraries: Record<string, Address>
  /** Hex without 0x, as Etherscan prints them; "" for none. */
  constructorArguments: string
  /** The SPDX identifier of the contract's source, or null. */
  licence: string | null
  /** The standard JSON input the verification compiled, when there was one. */
  stdJsonInput: unknown | null
  /** The compiler's `immutableReferences` of the runtime code (byte offsets and lengths). */
  immutableReferences: Record<string, Array<{ start: number; length: number }>>
}
