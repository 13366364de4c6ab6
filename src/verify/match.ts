import { decodeAbiParameters, type Abi, type AbiParameter, type Hex } from 'viem'
import { auxdataRanges, bare, put, slice, withPrefix, zero, type ByteRange, type ImmutableReferences, type LinkReferences } from './bytecode.ts'

export type MatchKind = 'exact_match' | 'match'

/** What the compiler made of the contract, its code as bare hex with library placeholders unfilled. */
export type CompiledContract = {
  abi: Abi
  creation: string
  runtime: string
  creationLinks: LinkReferences
  runtimeLinks: LinkReferences
  immutableReferences: ImmutableReferences
  /** The trailing metadata of every contract of the compile, as bare hex (see auxdataRanges). */
  auxdatas: string[]
}

/** The chain's facts about the address: its code, and the input that created it when known. */
export type ChainFacts = {
  runtimeCode: string
  /** The creation transaction's input, or for a contract a factory made, the creating frame's input. */
  creationInput: string | null
}

export type MatchOutcome = {
  match: MatchKind | null
  creationMatch: MatchKind | null
  runtimeMatch: MatchKind | null
  /** `path:Name` to the address its placeholders were filled with (read from the chain's code). */
  libraries: Record<string, Hex>
  /** The creation input past the compiled creation code, when the creation matched. */
  constructorArguments: Hex | null
  /** Where the runtime code holds metadata, masked for a partial match (and for the same-code rule). */
  runtimeAuxdata: ByteRange[]
  /** Why neither matched; null when one did. */
  reason: string | null
}

/**
 * Matching as Sourcify does (docs/verification.md, "How matching works"): the creation input
 * must start with the compiled creation code, the constructor's arguments after it; the runtime
 * code must equal the compiled runtime code once the immutables' bytes are taken from the chain
 * and the libraries' addresses filled in. Equal metadata too makes an exact match; equal with the
 * metadata masked in both, a partial one.
 */
export function matchContract(compiled: CompiledContract, chain: ChainFacts): MatchOutcome {
  const libraries: Record<string, Hex> = {}
  const runtime = matchRuntime(compiled, bare(chain.runtimeCode), libraries)
  const creation = chain.creationInput === null ? null : matchCreation(compiled, bare(chain.creationInput), libraries)
  const kinds = [runtime.kind, creation?.kind ?? null]
  const match = kinds.includes('exact_match') ? 'exact_match' : kinds.includes('match') ? 'match' : null
  const reasons = [runtime.reason, creation?.reason].filter((reason): reason is string => typeof reason === 'string')
  return {
    match,
    creationMatch: creation?.kind ?? null,
    runtimeMatch: runtime.kind,
    libraries: match ? libraries : {},
    constructorArguments: creation?.kind ? creation.constructorArguments : null,
    runtimeAuxdata: runtime.auxdata,
    reason: match ? null : reasons.join('; ') || 'the compiled code does not match the code at the address',
  }
}

type Side = { kind: MatchKind | null; reason: string | null }

function matchRuntime(compiled: CompiledContract, chain: string, libraries: Record<string, Hex>): Side & { auxdata: ByteRange[] } {
  let code = compiled.runtime
  const auxdata = auxdataRanges(code, compiled.auxdatas)
  if (chain.length === 0) return { kind: null, reason: 'the address has no code', auxdata }
  if (code.length !== chain.length) return { kind: null, reason: `the compiled runtime code is ${code.length / 2} bytes, the code at the address ${chain.length / 2}`, auxdata }
  const linked = fillLibraries(code, compiled.runtimeLinks, chain, libraries)
  if (typeof linked !== 'string') return { kind: null, reason: linked.reason, auxdata }
  code = linked
  // A library's runtime code starts with PUSH20 of its own address (its call protection), zeros until deployed.
  const protection = `73${'0'.repeat(40)}`
  if (code.startsWith(protection) && chain.startsWith('73')) code = `73${chain.slice(2, 42)}${code.slice(42)}`
  for (const range of Object.values(compiled.immutableReferences).flat()) code = put(code, range, slice(chain, range))
  return { ...compare(code, chain, auxdata, 'runtime'), auxdata }
}

function matchCreation(compiled: CompiledContract, input: string, libraries: Record<string, Hex>): Side & { constructorArguments: Hex | null } {
  const none = (reason: string) => ({ kind: null, reason, constructorArguments: null })
  const length = compiled.creation.length
  if (input.length < length) return none('the creation input is shorter than the compiled creation code')
  const head = input.slice(0, length)
  const linked = fillLibraries(compiled.creation, compiled.creationLinks, head, libraries)
  if (typeof linked !== 'string') return none(linked.reason)
  const side = compare(linked, head, auxdataRanges(linked, compiled.auxdatas), 'creation')
  if (!side.kind) return { ...side, constructorArguments: null }
  const args = input.slice(length)
  if (!argumentsFit(compiled.abi, args)) return none('the creation input past the compiled creation code is not an encoding of the constructor arguments')
  return { ...side, constructorArguments: withPrefix(args) }
}

function compare(code: string, chain: string, auxdata: ByteRange[], what: string): Side {
  if (code === chain) return { kind: 'exact_match', reason: null }
  if (auxdata.length > 0 && zero(code, auxdata) === zero(chain, auxdata)) return { kind: 'match', reason: null }
  return { kind: null, reason: `the compiled ${what} code differs from the chain's` }
}

/**
 * Each unlinked library's placeholder filled with the address at that place of the chain's code;
 * one library in two places must be one address.
 */
function fillLibraries(code: string, links: LinkReferences, chain: string, libraries: Record<string, Hex>): string | { reason: string } {
  let out = code
  for (const [file, names] of Object.entries(links)) {
    for (const [name, ranges] of Object.entries(names)) {
      const key = `${file}:${name}`
      for (const range of ranges) {
        const address = slice(chain, range)
        const known = libraries[key]
        if (known !== undefined && bare(known) !== address) return { reason: `the library ${key} is linked at two addresses` }
        libraries[key] = withPrefix(address)
        out = put(out, range, address)
      }
    }
  }
  return out
}

/** Whether `args` (bare hex) decodes as the constructor's parameters (none: it must be empty). */
function argumentsFit(abi: Abi, args: string): boolean {
  const constructor = abi.find((item) => item.type === 'constructor')
  const inputs: readonly AbiParameter[] = constructor && 'inputs' in constructor ? constructor.inputs : []
  if (inputs.length === 0) return args.length === 0
  try {
    decodeAbiParameters(inputs, withPrefix(args))
    return true
  } catch {
    return false
  }
}
