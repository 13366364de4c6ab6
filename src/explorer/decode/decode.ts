import { decodeEventLog, decodeFunctionData, toEventSelector, toFunctionSelector, type AbiEvent, type AbiFunction, type Hex } from 'viem'
import { formatAbiItem } from 'viem/utils'
import { jsonSafe } from '../../eth/quantity.ts'
import { eventAbi, methodAbi, nftMethodAbi } from './signatures.ts'

export type DecodedArg = { name: string; type: string; value: unknown }

export type DecodedCall = {
  name: string
  signature: string
  selector: Hex
  args: DecodedArg[]
  /** The calls a multicall carries, each decoded the same way (null where unknown). */
  calls?: Array<DecodedCall | { selector: Hex | null; data: Hex }>
}

export type DecodedEvent = { name: string; signature: string; args: Record<string, unknown> }

/** Canonical signatures, worked out once per table entry rather than per decoded call. */
const signatures = new Map<AbiFunction | AbiEvent, string>()
const signatureOf = (item: AbiFunction | AbiEvent) => {
  let signature = signatures.get(item)
  if (signature === undefined) {
    signature = formatAbiItem(item)
    signatures.set(item, signature)
  }
  return signature
}

/** First signature wins a selector: the table lists the common meaning first. */
function bySelector(abi: readonly AbiFunction[]): Map<string, AbiFunction> {
  const map = new Map<string, AbiFunction>()
  for (const item of abi) {
    const selector = toFunctionSelector(item)
    if (!map.has(selector)) map.set(selector, item)
  }
  return map
}

const methods = bySelector(methodAbi as readonly AbiFunction[])
const nftMethods = bySelector(nftMethodAbi as readonly AbiFunction[])

const events = new Map<string, AbiEvent[]>()
for (const item of eventAbi as readonly AbiEvent[]) {
  const topic = toEventSelector(item)
  events.set(topic, [...(events.get(topic) ?? []), item])
}

const MULTICALL_DEPTH = 2

/** The method name for a selector, for list rows: no decoding, just the table. */
export function methodName(selector: Hex | null): string | null {
  if (selector === null) return null
  return methods.get(selector)?.name ?? null
}

/**
 * The method and arguments of calldata whose selector is in the table, or null. `nft` picks
 * the ERC-721 reading of the selector ERC-20 shares with it. A multicall's inner calls are
 * decoded too, one level deep, since the outer name alone says nothing.
 */
export function decodeInput(input: Hex, { nft = false, depth = 0 } = {}): DecodedCall | null {
  if (input.length < 10) return null
  const selector = input.slice(0, 10).toLowerCase() as Hex
  const item = (nft && nftMethods.get(selector)) || methods.get(selector)
  if (!item) return null
  let decoded: { args?: readonly unknown[] }
  try {
    decoded = decodeFunctionData({ abi: [item], data: input })
  } catch {
    return null // the selector matched but the arguments do not fit: not this method
  }
  const values = decoded.args ?? []
  const args = item.inputs.map((input, index) => ({ name: input.name ?? `arg${index}`, type: input.type, value: jsonSafe(values[index]) }))
  const call: DecodedCall = { name: item.name, signature: signatureOf(item), selector, args }
  const inner = innerCalls(item, values)
  if (inner && depth < MULTICALL_DEPTH) {
    call.calls = inner.map((data) => decodeInput(data, { depth: depth + 1 }) ?? { selector: data.length >= 10 ? (data.slice(0, 10) as Hex) : null, data })
  }
  return call
}

/** The calldata a multicall-shaped method carries. */
function innerCalls(item: AbiFunction, values: readonly unknown[]): Hex[] | null {
  if (item.name === 'multicall') return values.at(-1) as Hex[]
  if (item.name.startsWith('aggregate') || item.name === 'tryAggregate') {
    return (values.at(-1) as Array<{ callData: Hex }>).map((call) => call.callData)
  }
  return null
}

/** A log's event name and arguments when its signature is in the table, or null. */
export function decodeLog(topics: Hex[], data: Hex): DecodedEvent | null {
  const candidates = topics[0] ? events.get(topics[0].toLowerCase()) : undefined
  for (const item of candidates ?? []) {
    try {
      const decoded = decodeEventLog({ abi: [item], topics: topics as [Hex, ...Hex[]], data, strict: true })
      return { name: item.name, signature: signatureOf(item), args: jsonSafe(decoded.args) as Record<string, unknown> }
    } catch {
      // Same signature, another layout (ERC-20 versus ERC-721 Transfer): try the next.
    }
  }
  return null
}
