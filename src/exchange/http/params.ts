import { addressKey, parseAddress, parseAddressAnyCase } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { InvalidInputError } from '../../errors.ts'
import { queryInteger } from '../../http/queryInteger.ts'

/**
 * Any address or number that cannot be parsed answers 400 with one fixed message that
 * does not say which parameter; so does a missing required pool on the tick route.
 */
export const INVALID_PARAMETER = 'invalid address or number'
export const invalidParameter = () => new InvalidInputError(INVALID_PARAMETER)

/** Every list route clamps `limit` to 1..500, silently, default 50. */
export const LIMIT = { min: 1, max: 500, fallback: 50 } as const

/**
 * An address in a query (an exact address: with or without 0x; a mixed-case one must carry a
 * valid checksum), as the 20 bytes the tables key on.
 */
export function addressParam(value: unknown): Uint8Array {
  const address = parseAddress(value)
  if (!address) throw invalidParameter()
  return blob(address)
}

/**
 * A pool's address in a path, where it is matched case-insensitively: any case goes, a wrong
 * checksum included (docs/exchange.md "Values"). Not 40 hex digits is still the 400.
 */
export function pathAddressParam(value: unknown): Uint8Array {
  const address = parseAddressAnyCase(value)
  if (!address) throw invalidParameter()
  return blob(address)
}

/** A parsed address (or none) as it goes into the key of a kept answer. */
export function hexKey(address: Uint8Array | null): string {
  return address === null ? '-' : addressKey(address)
}

/** An optional address filter: absent is null, present must parse. */
export function optionalAddress(value: unknown): Uint8Array | null {
  return value === undefined ? null : addressParam(value)
}

/** A number by the stack's one rule (`queryInteger`: decimal digits, optionally signed); anything else is the 400. */
export function integerParam(value: unknown): number {
  const number = queryInteger(value)
  if (number === null) throw invalidParameter()
  return number
}

export function limitParam(value: unknown): number {
  if (value === undefined) return LIMIT.fallback
  return Math.min(LIMIT.max, Math.max(LIMIT.min, integerParam(value)))
}

/** `closed=1` includes closed positions; any other number leaves them out. */
export function closedParam(value: unknown): boolean {
  return value === undefined ? false : integerParam(value) === 1
}

export const EVENT_KINDS = ['mint', 'burn', 'collect'] as const
export type EventKind = (typeof EVENT_KINDS)[number]

/** `/cl/events` accepts kind mint, burn or collect; every 400 of the index carries the one message. */
export function kindParam(value: unknown): EventKind | null {
  if (value === undefined) return null
  if (typeof value === 'string' && (EVENT_KINDS as readonly string[]).includes(value)) return value as EventKind
  throw invalidParameter()
}
