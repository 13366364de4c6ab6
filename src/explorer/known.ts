import type { Hex } from 'viem'
import { createCache, steadyClock, type Clock } from '../cache.ts'
import type { ContractBook, KnownContract } from '../contracts/book.ts'
import { decodeWith, methodName, TABLE, type DecodeWith } from '../decode/decode.ts'
import { addressKey } from '../eth/address.ts'

/** Names a call's method from its target and selector. */
export type MethodNamer = (to: Uint8Array | string | null, selector: Hex | null) => string | null

/** The fixed table alone, whatever the target. */
export const tableNamer: MethodNamer = (_to, selector) => methodName(selector)

/** How many contracts are remembered: a page of a list asks a few dozen. */
const KEPT = 4096

/**
 * The most distinct addresses one answer looks up: a transaction can reach thousands of
 * contracts (a hostile one on purpose), and past these the rest are decoded by the table alone.
 */
export const LOOKUPS_PER_ANSWER = 256

type Entry = { known: KnownContract | null }

/** An address as the cache keys it (`0x` and lower case), or null for what is not one (a frame's missing target). */
function keyOf(address: Uint8Array | string | null): string | null {
  if (address === null) return null
  const key = addressKey(address)
  return /^[0-9a-f]{40}$/.test(key) ? `0x${key}` : null
}

/**
 * What the contract book knows of the addresses the explorer decodes for, remembered a few
 * seconds each (the lists' answers are recomputed as often as a block comes, and a lookup may
 * read the node for a proxy), so a page costs one lookup per distinct address at most, never
 * one per row. A lookup that fails (the node away) counts as nothing known and is not kept.
 */
export class KnownContracts {
  private readonly kept

  constructor(
    private readonly book: ContractBook,
    maxAgeMs: number,
    clock: Clock = steadyClock,
  ) {
    this.kept = createCache<string, Entry>({
      clock,
      max: KEPT,
      ttl: Math.max(maxAgeMs, 1),
      fetchMethod: async (address) => {
        try {
          return { known: await this.book.lookup(address) }
        } catch {
          return undefined
        }
      },
    })
  }

  /** What is known of `address`, or null. */
  async lookup(address: Uint8Array | string): Promise<KnownContract | null> {
    const key = keyOf(address)
    return key ? ((await this.kept.fetch(key))?.known ?? null) : null
  }

  /** What is known of each distinct address, by lower-case address (null for none); the first `LOOKUPS_PER_ANSWER` are asked. */
  async all(addresses: Iterable<Uint8Array | string | null>): Promise<Map<string, KnownContract | null>> {
    const distinct = new Set<string>()
    for (const address of addresses) {
      const key = keyOf(address)
      if (key) distinct.add(key)
      if (distinct.size === LOOKUPS_PER_ANSWER) break
    }
    const found = await Promise.all([...distinct].map(async (address) => [address, await this.lookup(address)] as const))
    return new Map(found)
  }

  /** How to decode for each of `addresses` (the table alone where nothing is known). */
  async decoders(addresses: Iterable<Uint8Array | string | null>): Promise<(address: Uint8Array | string | null) => DecodeWith> {
    const known = await this.all(addresses)
    return (address) => {
      const key = keyOf(address)
      return key ? decodeWith(known.get(key)) : TABLE
    }
  }

  /** The namer of a page of transactions: one lookup per distinct target. */
  async namer(targets: Iterable<Uint8Array | string | null>): Promise<MethodNamer> {
    const using = await this.decoders(targets)
    return (to, selector) => methodName(selector, using(to))
  }
}
