import { decodeEventLog, type Abi } from 'viem'
import type { RpcLog } from '../chain/miniBlocks.ts'
import type { WireValue } from './frames.ts'

/** A log decoded with a bound ABI: the event's name and its arguments in wire form. */
export type DecodedLog = { name: string; args: Record<string, WireValue> }

/**
 * Decodes a log with `abi`, or null when the ABI has no matching event (a contract may emit events
 * its bound ABI does not declare; those are not relayed).
 */
export function decodeLog(abi: Abi, log: Pick<RpcLog, 'topics' | 'data'>): DecodedLog | null {
  let decoded: { eventName: string; args: unknown }
  try {
    decoded = decodeEventLog({ abi, topics: log.topics as [], data: log.data, strict: true }) as typeof decoded
  } catch {
    return null
  }
  const args = decoded.args
  // viem gives an array when an input has no name; key those by position.
  const named = Array.isArray(args) ? Object.fromEntries(args.map((value, index) => [String(index), value])) : (args as Record<string, unknown>) ?? {}
  return { name: decoded.eventName, args: Object.fromEntries(Object.entries(named).map(([key, value]) => [key, toWire(value)])) }
}

/** Integers become decimal strings (a JSON number loses precision past 2^53); the rest keeps its JSON form. */
export function toWire(value: unknown): WireValue {
  if (typeof value === 'bigint' || typeof value === 'number') return value.toString(10)
  if (typeof value === 'boolean' || typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(toWire)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toWire(item)]))
  return String(value)
}
