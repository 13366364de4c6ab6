// What the Read and Write tabs make of a contract's ABI: its functions, and what a person types
// into a function's inputs read as the values viem encodes.
import type { Abi, AbiFunction, AbiParameter } from 'viem'

/** The functions of the ABIs given (the implementation's first behind a proxy), one per signature. */
export function functionsOf(abis: ReadonlyArray<Abi | null | undefined>): AbiFunction[] {
  const seen = new Set<string>()
  const functions: AbiFunction[] = []
  for (const abi of abis) {
    for (const item of abi ?? []) {
      if (item.type !== 'function') continue
      const key = signatureOf(item)
      if (seen.has(key)) continue
      seen.add(key)
      functions.push(item)
    }
  }
  return functions
}

/** A function that reads (view or pure, or `constant` in an old ABI): the Read tab's; the rest are the Write tab's. */
export const isRead = (item: AbiFunction) => item.stateMutability === 'view' || item.stateMutability === 'pure' || (item as { constant?: boolean }).constant === true

/** `name(type,type)`, tuples spelled out: how the tabs name a function, overloads apart. */
export function signatureOf(item: AbiFunction): string {
  return `${item.name}(${item.inputs.map(typeOf).join(',')})`
}

function typeOf(param: AbiParameter): string {
  if (!param.type.startsWith('tuple')) return param.type
  const components = (param as { components?: readonly AbiParameter[] }).components ?? []
  return `(${components.map(typeOf).join(',')})${param.type.slice('tuple'.length)}`
}

/** What a person types for a parameter of `type`: the field's placeholder. */
export function placeholderOf(param: AbiParameter): string {
  const type = param.type
  if (type.endsWith(']') || type.startsWith('tuple')) return 'JSON, e.g. ["1", "0x…"]'
  if (type.startsWith('uint') || type.startsWith('int')) return 'a whole number (or 0x hex)'
  if (type === 'bool') return 'true or false'
  if (type === 'address') return '0x and 40 hex digits'
  if (type.startsWith('bytes')) return '0x and hex digits'
  return 'text'
}

/** An input that does not read as its type; the message names the parameter. */
export class InputError extends Error {}

/** The value of `param` from what was typed: numbers as bigint, arrays and tuples as JSON. */
export function parseInput(param: AbiParameter, text: string, label = param.name || param.type): unknown {
  const type = param.type
  if (type.endsWith(']') || type.startsWith('tuple')) {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new InputError(`${label}: write a ${type} as JSON`)
    }
    return fromJson(param, json, label)
  }
  // Text is taken as typed; every other scalar without the spaces around it.
  return scalar(type, type === 'string' ? text : text.trim(), label)
}

function fromJson(param: AbiParameter, value: unknown, label: string): unknown {
  const type = param.type
  const array = /^(.*)\[(\d*)\]$/.exec(type)
  if (array) {
    if (!Array.isArray(value)) throw new InputError(`${label}: a ${type} is a JSON array`)
    if (array[2] && value.length !== Number(array[2])) throw new InputError(`${label}: a ${type} has ${array[2]} items, not ${value.length}`)
    const inner = { ...param, type: array[1]! } as AbiParameter
    return value.map((item, index) => fromJson(inner, item, `${label}[${index}]`))
  }
  if (type === 'tuple') {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? []
    const items = Array.isArray(value) ? value : value && typeof value === 'object' ? components.map((component) => (value as Record<string, unknown>)[component.name ?? '']) : null
    if (!items || items.length !== components.length) throw new InputError(`${label}: a tuple of ${components.length} is a JSON array of ${components.length} (or an object by name)`)
    return components.map((component, index) => fromJson(component, items[index], `${label}.${component.name || index}`))
  }
  if (typeof value === 'boolean' && type === 'bool') return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return scalar(type, String(value), label)
  if (typeof value !== 'string') throw new InputError(`${label}: a ${type} is written as a string`)
  return scalar(type, type === 'string' ? value : value.trim(), label)
}

const HEX = /^0x([0-9a-fA-F]{2})*$/

function scalar(type: string, text: string, label: string): unknown {
  if (type.startsWith('uint') || type.startsWith('int')) {
    if (!/^-?\d+$/.test(text) && !/^0x[0-9a-fA-F]+$/.test(text)) throw new InputError(`${label}: a ${type} is a whole number`)
    const value = BigInt(text)
    const bits = BigInt(Number(type.replace(/^u?int/, '') || 256))
    const signed = type.startsWith('int')
    const [low, high] = signed ? [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n] : [0n, (1n << bits) - 1n]
    if (value < low || value > high) throw new InputError(`${label}: ${text} does not fit in a ${type}`)
    return value
  }
  if (type === 'bool') {
    if (text === 'true' || text === '1') return true
    if (text === 'false' || text === '0') return false
    throw new InputError(`${label}: a bool is true or false`)
  }
  if (type === 'address') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new InputError(`${label}: an address is 0x and 40 hex digits`)
    return text.toLowerCase()
  }
  if (type === 'bytes') {
    if (!HEX.test(text)) throw new InputError(`${label}: bytes are 0x and an even number of hex digits`)
    return text.toLowerCase()
  }
  if (type.startsWith('bytes')) {
    const size = Number(type.slice(5))
    if (!HEX.test(text) || text.length !== 2 + size * 2) throw new InputError(`${label}: a ${type} is 0x and ${size * 2} hex digits`)
    return text.toLowerCase()
  }
  return text
}

/** A decoded output as the page writes it: strings as they are, the rest as JSON. */
export const shownValue = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))
