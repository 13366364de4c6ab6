// The explorer's answers about a contract's code (`/api/address/{address}/contract` and
// `/call`), as types only: the explorer builds them as these and its pages read them, so a field
// that changes on one side is a type error on the other. Nothing here runs.
import type { Abi } from 'viem'

export type MatchKind = 'exact_match' | 'match'

/** How the stack knows a contract: verified, the same code as a verified one (`via`), or matched from a build artifact. */
export type ContractHow = { kind: 'verified' } | { kind: 'similar'; via: string } | { kind: 'artifact'; path: string }

/** `/address/{address}/contract`: what the contract book knows of an address; every field null when nothing. */
export type ContractAnswer = {
  address: string
  name: string | null
  match: MatchKind | null
  by: ContractHow | null
  compilerVersion: string | null
  optimizer: { enabled: boolean; runs: number } | null
  evmVersion: string | null
  licence: string | null
  constructorArguments: string | null
  libraries: Record<string, string> | null
  sources: Array<{ path: string; content: string }> | null
  abi: Abi | null
  proxy: { kind: string; implementation: string; name: string | null; match: MatchKind | null; by: ContractHow | null; abi: Abi | null } | null
}

/** Why a call failed, in words (`message`), as the explorer decodes a revert (docs/explorer.md, Reverts). */
export type RevertWords = {
  kind: string
  message: string
  name?: string
  signature?: string
  args?: Array<{ name: string; type: string; value: unknown }>
  code?: string
  selector: string | null
  data: string
}

/** `/address/{address}/call`: one read of a view or pure function. */
export type CallAnswer = {
  address: string
  function: { name: string; signature: string; selector: string; stateMutability: string }
  result: string | null
  outputs: Array<{ name: string; type: string; value: unknown }> | null
  reverted: boolean
  revertReason: RevertWords | null
}
