import type { Database } from 'bun:sqlite'
import { decodeEventLog, parseAbi, toEventSelector, type Address, type Hex } from 'viem'
import type { SearchResult } from '../../answers/search.ts'
import { checksum } from '../../eth/address.ts'
import { blob, hex } from '../../eth/bytes.ts'
import { blockHash, findLogs, spoolHead, type FoundLog } from '../../spool/read.ts'
import type { RegistryView } from '../registryView.ts'
import { NAME_SUFFIX } from '../names.ts'
import { PrefixIndex, wordKeys } from './prefixIndex.ts'


const events = parseAbi([
  'event TokenLaunched(address indexed token, address indexed pair, address indexed creator, string name, string symbol, uint256 supply, uint256 liquidityTokens, uint256 liquidityEth, uint256 fee)',
  'event NameRegistered(bytes32 indexed id, address indexed owner, string label, uint256 expires, uint256 fee)',
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index)',
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
])
const topic = (name: string) => blob(toEventSelector(events.find((item) => item.name === name)!))
const TOPICS = { launched: topic('TokenLaunched'), name: topic('NameRegistered'), pair: topic('PairCreated'), pool: topic('PoolCreated') }

/** Logs read per query of the spool while catching up: a page, so no read holds the thread long. */
const PAGE = 2000

/** The contracts whose events name things: a null one is not read. */
export type CatalogSources = { v2Factory: Address | null; v3Factory: Address | null; nameRegistry: Address | null }

/**
 * The names a search finds, in two prefix indexes (docs/explorer.md, "Search"). `listed` holds
 * what the registry vouches for (its tokens' symbols and names, its tags' labels) and is rebuilt
 * when the registry's files are replaced; `chain` holds what anyone can put on chain (tokens
 * launched through the launcher, `.bx` names registered, the factories' pairs and pools) and is
 * built from the spool's logs as they arrive, from the block after the last one read. A block
 * read before that is no longer the spool's (a reorganisation) starts `chain` again from nothing.
 * Both live in memory: a query is a binary search, never a read of the spool.
 */
export class SearchCatalog {
  listed = new PrefixIndex<SearchResult>()
  chain = new PrefixIndex<SearchResult>()
  private registryRevision: [unknown, unknown] = [undefined, undefined]
  /** Symbols of launched tokens by lower-case address, to name their pairs and pools. */
  private symbols = new Map<string, string>()
  private nextBlock = 0
  private lastHash: Uint8Array | null = null
  private readVersion: number | null = null

  /** `version` changes whenever the spool holds something new (Spool.version). */
  constructor(
    private readonly db: Database,
    private readonly registry: RegistryView,
    private readonly sources: CatalogSources,
    private readonly version: () => number,
  ) {}

  /**
   * Brings both indexes up to the registry and the spool's head: two comparisons when neither
   * changed, so every query calls it; the explorer also calls it once a second, so that a query
   * seldom waits for a catch-up.
   */
  refresh(): void {
    const revision = this.registry.revision()
    if (revision[0] !== this.registryRevision[0] || revision[1] !== this.registryRevision[1]) {
      this.registryRevision = revision
      this.listed = this.buildListed()
      // The chain's names read the registry too (a listed address is its, a pair is named by its symbols).
      this.restart()
    }
    const version = this.version()
    if (version === this.readVersion && this.nextBlock > 0) return
    this.readVersion = version
    const head = spoolHead(this.db)
    if (head === null) return
    if (this.nextBlock > 0) {
      const held = blockHash(this.db, this.nextBlock - 1)
      if (!held || !this.lastHash || !sameBytes(held, this.lastHash)) this.restart()
    }
    if (head < this.nextBlock) return
    const range = { first: this.nextBlock, last: head }
    // Tokens first: a launch creates its pair before it names the token, in the same transaction.
    this.each(range, null, TOPICS.launched, (log) => this.addLaunched(log))
    if (this.sources.nameRegistry) this.each(range, this.sources.nameRegistry, TOPICS.name, (log) => this.addName(log))
    if (this.sources.v2Factory) this.each(range, this.sources.v2Factory, TOPICS.pair, (log) => this.addPair(log))
    if (this.sources.v3Factory) this.each(range, this.sources.v3Factory, TOPICS.pool, (log) => this.addPool(log))
    this.nextBlock = head + 1
    this.lastHash = blockHash(this.db, head)
  }

  /** The symbol a token goes by: the registry's, a launch's, or its short address. */
  symbolOf(address: string): string {
    return this.registry.token(address)?.symbol ?? this.symbols.get(address.toLowerCase()) ?? shortAddress(address)
  }

  private restart(): void {
    this.chain = new PrefixIndex<SearchResult>()
    this.symbols = new Map()
    this.nextBlock = 0
    this.lastHash = null
  }

  private buildListed(): PrefixIndex<SearchResult> {
    const index = new PrefixIndex<SearchResult>()
    for (const token of this.registry.listed()) {
      const address = checksum(token.address)
      index.add({ kind: 'token', title: token.name, detail: token.symbol, address, href: `/token/${address}`, listed: true }, [token.symbol, ...wordKeys(token.name)])
    }
    for (const { address: text, label } of this.registry.tags()) {
      const address = checksum(text)
      index.add({ kind: 'label', title: label.name, detail: label.category || null, address, href: `/address/${address}`, listed: null }, wordKeys(label.name))
    }
    return index
  }

  private each(range: { first: number; last: number }, address: Address | null, topic0: Uint8Array, use: (log: FoundLog) => void): void {
    const filter = { range, address: address ? blob(address) : null, topics: [topic0], joins: [] }
    for (let offset = 0; ; offset += PAGE) {
      const logs = findLogs(this.db, filter, PAGE, offset)
      for (const log of logs) use(log)
      if (logs.length < PAGE) return
    }
  }

  private addLaunched(log: FoundLog): void {
    const args = decode(log, 'TokenLaunched') as { token: Address; name: string; symbol: string } | null
    if (!args) return
    const address = checksum(args.token)
    // The registry's word wins for an address it lists: a launch cannot rename a listed token.
    if (this.registry.token(address)) return
    this.symbols.set(address.toLowerCase(), args.symbol)
    this.chain.add({ kind: 'token', title: args.name, detail: args.symbol, address, href: `/token/${address}`, listed: false }, [args.symbol, ...wordKeys(args.name)])
  }

  private addName(log: FoundLog): void {
    const args = decode(log, 'NameRegistered') as { label: string } | null
    if (!args || args.label === '') return
    const name = `${args.label}.${NAME_SUFFIX}`
    this.chain.add({ kind: 'name', title: name, detail: null, address: null, href: `/name/${encodeURIComponent(args.label)}`, listed: null }, [name, args.label])
  }

  private addPair(log: FoundLog): void {
    const args = decode(log, 'PairCreated') as { token0: Address; token1: Address; pair: Address } | null
    if (!args) return
    const address = checksum(args.pair)
    const [a, b] = [this.symbolOf(args.token0), this.symbolOf(args.token1)]
    const listed = this.bothListed(args.token0, args.token1)
    this.chain.add({ kind: 'pair', title: `${a}/${b}`, detail: 'V2', address, href: `/exchange/pair/${address}`, listed }, [`${a}/${b}`, `${b}/${a}`])
  }

  private addPool(log: FoundLog): void {
    const args = decode(log, 'PoolCreated') as { token0: Address; token1: Address; fee: number; pool: Address } | null
    if (!args) return
    const address = checksum(args.pool)
    const [a, b] = [this.symbolOf(args.token0), this.symbolOf(args.token1)]
    const detail = `${Number(args.fee) / 10_000}% · V3`
    const listed = this.bothListed(args.token0, args.token1)
    this.chain.add({ kind: 'pool', title: `${a}/${b}`, detail, address, href: `/exchange/pool/${address}`, listed }, [`${a}/${b}`, `${b}/${a}`])
  }

  private bothListed(token0: string, token1: string): boolean {
    return this.registry.token(token0) !== null && this.registry.token(token1) !== null
  }
}

/** A log's arguments by the event's ABI; null for a log that does not decode (a contract may emit anything under a topic). */
function decode(log: FoundLog, eventName: string): Record<string, unknown> | null {
  const topics = [log.topic0, log.topic1, log.topic2, log.topic3].filter((topic): topic is Uint8Array => topic !== null).map((topic) => hex(topic))
  try {
    return decodeEventLog({ abi: events, eventName: eventName as 'PairCreated', topics: topics as [Hex, ...Hex[]], data: hex(log.data), strict: true }).args as Record<string, unknown>
  } catch {
    return null
  }
}

const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index])
}
