import { decodeAbiParameters, decodeEventLog, decodeFunctionData, toEventSelector, toFunctionSelector, type Abi, type AbiEvent, type AbiFunction, type AbiParameter, type Hex } from 'viem'
import { formatAbiItem } from 'viem/utils'
import type { KnownBy, KnownContract } from '../contracts/book.ts'
import { jsonSafe } from '../eth/quantity.ts'
import { errorAbi, eventAbi, methodAbi, nftMethodAbi, type AbiError } from './signatures.ts'

export type DecodedArg = { name: string; type: string; value: unknown }

export type DecodedCall = {
  name: string
  signature: string
  selector: Hex
  args: DecodedArg[]
  /** The calls a multicall carries, each decoded the same way (null where unknown). */
  calls?: Array<DecodedCall | { selector: Hex | null; data: Hex }>
}

/** `types` gives each named argument's ABI type (`uint256`), as a reader formats a value by it. */
export type DecodedEvent = { name: string; signature: string; args: Record<string, unknown>; types: Record<string, string> }

/**
 * Where a decode looks, in order: the ABIs of the contract concerned (its own, then the
 * implementation's behind a proxy) and the fixed table of signatures. The table goes first for
 * the stack's own contracts, whose names in it are the ones the explorer has always shown (WETH's
 * `Transfer` reads `from, to, value`, not WETH9's `src, dst, wad`); the contract's ABI goes first
 * for everything else, since it is what the developer wrote.
 */
export type DecodeWith = { abis: readonly Abi[]; tableFirst: boolean }

/** The fixed table alone: a contract nothing is known of. */
export const TABLE: DecodeWith = { abis: [], tableFirst: true }

/** What to decode a contract's calls, logs and errors with, from what the contract book knows of it. */
export function decodeWith(known: Pick<KnownContract, 'abi' | 'by' | 'proxy'> | null | undefined): DecodeWith {
  if (!known) return TABLE
  const target = known.proxy?.target
  return { abis: target ? [known.abi, target.abi] : [known.abi], tableFirst: stackOwn(known.by) }
}

const stackOwn = (by: KnownBy) => (by.kind === 'verified' || by.kind === 'similar') && by.verification.origin === 'stack'

/** `using` with more ABIs after its own (the other contracts of a transaction, where a revert may come from). */
export function withAlso(using: DecodeWith, more: readonly Abi[]): DecodeWith {
  const abis = [...using.abis, ...more.filter((abi) => !using.abis.includes(abi))]
  return { abis, tableFirst: using.tableFirst }
}

/** An ABI's functions, events and errors by selector, worked out once per ABI object. */
type Index = { functions: Map<string, AbiFunction>; events: Map<string, AbiEvent[]>; errors: Map<string, AbiError> }

function buildIndex(items: readonly unknown[]): Index {
  const index: Index = { functions: new Map(), events: new Map(), errors: new Map() }
  for (const item of items as Abi) {
    try {
      // First signature wins a selector: the table lists the common meaning first.
      if (item.type === 'function') {
        const selector = toFunctionSelector(item)
        if (!index.functions.has(selector)) index.functions.set(selector, item)
      } else if (item.type === 'event') {
        const topic = toEventSelector(item)
        index.events.set(topic, [...(index.events.get(topic) ?? []), item])
      } else if (item.type === 'error') {
        const selector = toFunctionSelector(formatAbiItem(item))
        if (!index.errors.has(selector)) index.errors.set(selector, item)
      }
    } catch {
      // An item a verified ABI holds but viem cannot read (a malformed type): it names nothing.
    }
  }
  return index
}

const indexes = new WeakMap<object, Index>()
function indexOf(abi: Abi): Index {
  let index = indexes.get(abi)
  if (!index) {
    index = buildIndex(abi)
    indexes.set(abi, index)
  }
  return index
}

const table = buildIndex([...methodAbi, ...eventAbi, ...errorAbi])
const nftTable = buildIndex(nftMethodAbi)

/** The indexes to look in, in order; `nft` puts the ERC-721 readings before the table's. */
function sources(using: DecodeWith, nft = false): Array<{ index: Index; fromTable: boolean }> {
  const fixed = [...(nft ? [nftTable] : []), table].map((index) => ({ index, fromTable: true }))
  const own = using.abis.map((abi) => ({ index: indexOf(abi), fromTable: false }))
  return using.tableFirst ? [...fixed, ...own] : [...own, ...fixed]
}

/** Canonical signatures, worked out once per item rather than per decoded call. */
const signatures = new WeakMap<object, string>()
export function signatureOf(item: AbiFunction | AbiEvent | AbiError): string {
  let signature = signatures.get(item)
  if (signature === undefined) {
    signature = formatAbiItem(item)
    signatures.set(item, signature)
  }
  return signature
}

/** Values as JSON with their parameters' names and types (an unnamed parameter is `arg0`...). */
export function namedArgs(params: readonly AbiParameter[], values: readonly unknown[], unnamed = 'arg'): DecodedArg[] {
  return params.map((param, index) => ({ name: param.name ?? `${unnamed}${index}`, type: param.type, value: jsonSafe(values[index]) }))
}

const MULTICALL_DEPTH = 2

const selectorOf = (data: string): Hex | null => (data.length >= 10 ? (data.slice(0, 10).toLowerCase() as Hex) : null)

/** The method name for a selector, for list rows: no decoding, just the lookup. */
export function methodName(selector: Hex | null, using: DecodeWith = TABLE): string | null {
  if (selector === null) return null
  const key = selector.toLowerCase()
  for (const { index } of sources(using)) {
    const item = index.functions.get(key)
    if (item) return item.name
  }
  return null
}

type Matched = { item: AbiFunction; values: readonly unknown[]; fromTable: boolean }

/** The first function whose selector and argument layout fit `input`. */
function matchCall(input: Hex, using: DecodeWith, nft: boolean): Matched | null {
  const selector = selectorOf(input)
  if (!selector) return null
  for (const { index, fromTable } of sources(using, nft)) {
    const item = index.functions.get(selector)
    if (!item) continue
    try {
      return { item, values: decodeFunctionData({ abi: [item], data: input }).args ?? [], fromTable }
    } catch {
      // The selector matched but the arguments do not fit: not this method, perhaps the next source's.
    }
  }
  return null
}

export type DecodeOptions = { nft?: boolean; using?: DecodeWith }

/**
 * The method and arguments of calldata, or null. `nft` picks the ERC-721 reading of the
 * selector ERC-20 shares with it. A multicall's inner calls are decoded too, one level deep,
 * since the outer name alone says nothing.
 */
export function decodeInput(input: Hex, { nft = false, using = TABLE, depth = 0 }: DecodeOptions & { depth?: number } = {}): DecodedCall | null {
  const matched = matchCall(input, using, nft)
  if (!matched) return null
  const { item, values } = matched
  const call: DecodedCall = { name: item.name, signature: signatureOf(item), selector: selectorOf(input)!, args: namedArgs(item.inputs, values) }
  const inner = innerCalls(item, values)
  if (inner && depth < MULTICALL_DEPTH) {
    // A multicall calls its own contract; an aggregate calls others, which only the table can name.
    const innerUsing = item.name === 'multicall' ? using : TABLE
    call.calls = inner.data.map((data) => decodeInput(data, { using: innerUsing, depth: depth + 1 }) ?? { selector: selectorOf(data), data })
  }
  return call
}

/**
 * The values a call returned, named by the function's outputs, or null: the function is not known
 * from an ABI (the table keeps no outputs), or `output` does not fit them. A function that
 * returns nothing gives [].
 */
export function decodeOutput(input: Hex, output: Hex | null, { nft = false, using = TABLE }: DecodeOptions = {}): DecodedArg[] | null {
  const matched = matchCall(input, using, nft)
  if (!matched || matched.fromTable) return null
  const { outputs } = matched.item
  if (outputs.length === 0) return output === null || output === '0x' ? [] : null
  if (output === null) return null
  try {
    return namedArgs(outputs, decodeAbiParameters(outputs, output), 'out')
  } catch {
    return null
  }
}

/** The calldata a multicall-shaped method carries. */
function innerCalls(item: AbiFunction, values: readonly unknown[]): { data: Hex[] } | null {
  const last = values.at(-1)
  if (item.name === 'multicall' && Array.isArray(last)) return { data: last as Hex[] }
  if ((item.name.startsWith('aggregate') || item.name === 'tryAggregate') && Array.isArray(last)) {
    return { data: (last as Array<{ callData: Hex }>).map((call) => call.callData) }
  }
  return null
}

/** A log's event name and arguments, or null. */
export function decodeLog(topics: Hex[], data: Hex, using: DecodeWith = TABLE): DecodedEvent | null {
  const topic = topics[0]?.toLowerCase()
  if (!topic) return null
  for (const { index } of sources(using)) {
    for (const item of index.events.get(topic) ?? []) {
      try {
        const decoded = decodeEventLog({ abi: [item], topics: topics as [Hex, ...Hex[]], data, strict: true })
        const types = Object.fromEntries(item.inputs.filter((input) => input.name).map((input) => [input.name!, input.type]))
        return { name: item.name, signature: signatureOf(item), args: jsonSafe(decoded.args) as Record<string, unknown>, types }
      } catch {
        // Same signature, another layout (ERC-20 versus ERC-721 Transfer): try the next.
      }
    }
  }
  return null
}

/** The custom error whose selector starts `data`, with its arguments, or null. */
export function decodeCustomError(data: Hex, using: DecodeWith = TABLE): { item: AbiError; args: DecodedArg[] } | null {
  const selector = selectorOf(data)
  if (!selector) return null
  for (const { index } of sources(using)) {
    const item = index.errors.get(selector)
    if (!item) continue
    try {
      return { item, args: namedArgs(item.inputs, decodeAbiParameters(item.inputs, `0x${data.slice(10)}`)) }
    } catch {
      // Its arguments do not fit this error: perhaps another source's.
    }
  }
  return null
}
