import type { SpoolDb } from '../spool/engine.ts'
import { toEventSelector, type Address } from 'viem'
import { addressKey, checksum } from '../eth/address.ts'
import { blob } from '../eth/bytes.ts'
import { addressTopic, addressWord, intTopic } from '../eth/words.ts'
import { findLogs, spoolHead } from '../spool/read.ts'
import type { Probe } from './probes.ts'
import type { RegistryView } from './registryView.ts'

// The exchange's pairs and pools by address, so that a page can name one by its tokens, kind and
// fee ("BX/WETH · V2", "BX/WETH · 0.3% · V3") where it has no tag label (a tag always wins).
//
// Read from the spool's own copy of the two factories' creation logs (PairCreated, PoolCreated),
// not from the exchange index over HTTP: the explorer answers from the same spool version the page
// shows, the names are there when the exchange index is not running (a stack without it, a test
// of the explorer alone), and no request waits on another service. Only the factories the config
// names count: any contract can log a PairCreated naming any tokens. The logs are read through the
// logs' index by emitter (a few rows per pair), all again at most every few seconds; a pair
// created since shows its name at the next read, and a reorganisation that dropped one drops it.

export const PAIR_CREATED = toEventSelector('PairCreated(address,address,address,uint256)')
export const POOL_CREATED = toEventSelector('PoolCreated(address,address,uint24,int24,address)')

/** More pairs and pools than any chain of the stack holds; past these the rest go unnamed rather than slow every page. */
const MAX_POOLS = 20_000

/** A pair (`v2`) or a pool (`v3`, with its fee in hundredths of a basis point) and its two tokens. */
export type ExchangePool = { address: Address; kind: 'v2' | 'v3'; token0: Address; token1: Address; fee: number | null }

/** The fee of a pool as a percentage: 3000 → "0.3%", 500 → "0.05%", 10000 → "1%"; integers only. */
export function feePercent(fee: number): string {
  const whole = Math.floor(fee / 10_000)
  const fraction = String(fee % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '')
  return `${whole}${fraction ? `.${fraction}` : ''}%`
}

/** `BX/WETH · V2`, `BX/WETH · 0.3% · V3`: the symbols in `symbols`' order, with the kind and fee. */
export function poolName(pool: ExchangePool, symbols: [string, string]): string {
  const pairOf = symbols.join('/')
  return pool.kind === 'v2' ? `${pairOf} · V2` : `${pairOf} · ${feePercent(pool.fee ?? 0)} · V3`
}

export class ExchangeNames {
  private pools = new Map<string, ExchangePool>()
  private byToken = new Map<string, ExchangePool[]>()
  private readAt = -Infinity
  private readHead: number | null = null

  constructor(
    private readonly db: SpoolDb,
    private readonly factories: { v2: Address | null; v3: Address | null; weth: Address | null },
    private readonly maxAgeMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * The names brought up to the spool's head (read again when it moved, or once the age is out):
   * a request awaits this once, then asks what it needs of them.
   */
  async current(): Promise<this> {
    const head = await spoolHead(this.db)
    if (head !== this.readHead || this.now() - this.readAt >= this.maxAgeMs) await this.read(head)
    return this
  }

  /** The pair or pool at `address`, or null. */
  pool(address: string): ExchangePool | null {
    return this.pools.get(addressKey(address)) ?? null
  }

  /** The pairs and pools that trade `token`, oldest first. */
  poolsOf(token: string): ExchangePool[] {
    return this.byToken.get(addressKey(token)) ?? []
  }

  /** Every pair and pool, oldest first. */
  all(): ExchangePool[] {
    return [...this.pools.values()]
  }

  /**
   * The name of each pair or pool among `addresses` (by lower-case address), its tokens' symbols
   * from the registry, else from `probed` (by lower-case address), else their short addresses.
   * Wrapped ether is named second, as people say "BX/WETH".
   */
  names(addresses: Iterable<string>, registry: RegistryView, probed: ReadonlyMap<string, Probe | null> = new Map()): Map<string, string> {
    const symbol = (token: Address) => registry.token(token)?.symbol ?? probed.get(token.toLowerCase())?.symbol ?? `${token.slice(0, 8)}…`
    const found = new Map<string, string>()
    for (const address of addresses) {
      const pool = this.pool(address)
      if (!pool) continue
      found.set(address.toLowerCase(), poolName(pool, this.ordered(pool).map(symbol) as [string, string]))
    }
    return found
  }

  /** The unlisted tokens of the pairs and pools among `addresses`: those a caller probes for their symbols. */
  unlistedTokens(addresses: Iterable<string>, registry: RegistryView): Address[] {
    const tokens = new Set<Address>()
    for (const address of addresses) {
      const pool = this.pool(address)
      if (!pool) continue
      for (const token of [pool.token0, pool.token1]) if (!registry.token(token)) tokens.add(token)
    }
    return [...tokens]
  }

  /** The pool's tokens with wrapped ether last. */
  ordered(pool: ExchangePool): [Address, Address] {
    const weth = this.factories.weth?.toLowerCase()
    return pool.token0.toLowerCase() === weth ? [pool.token1, pool.token0] : [pool.token0, pool.token1]
  }

  private async read(head: number | null): Promise<void> {
    const pools = new Map<string, ExchangePool>()
    const byToken = new Map<string, ExchangePool[]>()
    const add = (pool: ExchangePool) => {
      pools.set(addressKey(pool.address), pool)
      for (const token of [pool.token0, pool.token1]) {
        const key = addressKey(token)
        byToken.set(key, [...(byToken.get(key) ?? []), pool])
      }
    }
    if (head !== null) {
      const range = { first: 0, last: head }
      const { v2, v3 } = this.factories
      if (v2) {
        for (const log of await findLogs(this.db, { range, address: blob(v2), topics: [blob(PAIR_CREATED)], joins: [] }, MAX_POOLS, 0)) {
          if (log.data.length < 64 || !log.topic1 || !log.topic2) continue
          add({ address: checksum(addressWord(log.data, 0)), kind: 'v2', token0: checksum(addressTopic(log.topic1)), token1: checksum(addressTopic(log.topic2)), fee: null })
        }
      }
      if (v3) {
        for (const log of await findLogs(this.db, { range, address: blob(v3), topics: [blob(POOL_CREATED)], joins: [] }, MAX_POOLS, 0)) {
          if (log.data.length < 64 || !log.topic1 || !log.topic2 || !log.topic3) continue
          add({ address: checksum(addressWord(log.data, 1)), kind: 'v3', token0: checksum(addressTopic(log.topic1)), token1: checksum(addressTopic(log.topic2)), fee: intTopic(log.topic3) })
        }
      }
    }
    this.pools = pools
    this.byToken = byToken
    this.readAt = this.now()
    this.readHead = head
  }
}
