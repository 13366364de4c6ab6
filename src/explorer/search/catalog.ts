import type { SpoolDb } from '../../spool/engine.ts'
import { toEventSelector, type Address } from 'viem'
import type { SearchResult } from '../../answers/search.ts'
import { addressKey, checksum } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { addressTopic, addressWord, intTopic, smallInt } from '../../eth/words.ts'
import { blockHash, logsWithTopicAfter, spoolHead, txId, type BareLog } from '../../spool/read.ts'
import { feePercent, PAIR_CREATED, POOL_CREATED } from '../exchangeNames.ts'
import type { ContractProbes } from '../probes.ts'
import { tokensAfter } from '../read/tokens.ts'
import type { RegistryView } from '../registryView.ts'
import { NAME_SUFFIX } from '../names.ts'
import { QUERY_MAX } from './fold.ts'
import { PrefixIndex, wordKeys } from './prefixIndex.ts'

// The events that name things, read by their topic0 (a string parameter is read at its head's offset).
const topic = (signature: string) => blob(toEventSelector(signature))
const TOPICS = {
  launched: topic('TokenLaunched(address,address,address,string,string,uint256,uint256,uint256,uint256)'),
  name: topic('NameRegistered(bytes32,address,string,uint256,uint256)'),
  pair: blob(PAIR_CREATED),
  pool: blob(POOL_CREATED),
}

/** Logs read per query of the spool while catching up: a page, so no read holds the thread long. */
const PAGE = 2000
/** Token contracts the sweep reads (and at most probes) a turn. */
const SWEEP = 50

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
  /** The token contracts already named here (launched or swept), by lower-case address, and where the sweep is. */
  private named = new Set<string>()
  private sweptTo: Uint8Array = new Uint8Array(0)
  /** Bumped by every restart, so that a sweep begun before one adds nothing after it. */
  private generation = 0

  private turns: Promise<void> = Promise.resolve()

  /** `version` changes whenever the spool holds something new (Spool.version). */
  constructor(
    private readonly db: SpoolDb,
    private readonly registry: RegistryView,
    private readonly sources: CatalogSources,
    private readonly version: () => number,
  ) {}

  /**
   * Brings both indexes up to the registry and the spool's head: two comparisons when neither
   * changed, so every query calls it; the explorer also calls it once a second, so that a query
   * seldom waits for a catch-up. Calls take turns: one made while another reads runs after it,
   * so that it sees what the spool holds when it was made.
   */
  refresh(): Promise<void> {
    const next = this.turns.then(() => this.catchUp())
    this.turns = next.catch(() => {})
    return next
  }

  private async catchUp(): Promise<void> {
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
    const head = await spoolHead(this.db)
    if (head === null) return
    if (this.nextBlock > 0) {
      const held = await blockHash(this.db, this.nextBlock - 1)
      if (!held || !this.lastHash || !sameBytes(held, this.lastHash)) this.restart()
    }
    if (head < this.nextBlock) return
    const range = { first: this.nextBlock, last: head }
    // Tokens first: a launch creates its pair before it names the token, in the same transaction.
    await this.each(range, null, TOPICS.launched, (log) => this.addLaunched(log))
    if (this.sources.nameRegistry) await this.each(range, this.sources.nameRegistry, TOPICS.name, (log) => this.addName(log))
    if (this.sources.v2Factory) await this.each(range, this.sources.v2Factory, TOPICS.pair, (log) => this.addPair(log))
    if (this.sources.v3Factory) await this.each(range, this.sources.v3Factory, TOPICS.pool, (log) => this.addPool(log))
    this.nextBlock = head + 1
    this.lastHash = await blockHash(this.db, head)
  }

  /** The symbol a token goes by: the registry's, a launch's, or its short address. */
  symbolOf(address: string): string {
    return this.registry.token(address)?.symbol ?? this.symbols.get(address.toLowerCase()) ?? shortAddress(address)
  }

  /**
   * One turn of the sweep over the contracts the explorer's token stream has seen move tokens
   * (LP tokens, NFT collections, tokens made by any other contract): the next SWEEP of them in
   * address order, from the start again once past the last; each neither listed nor named yet is
   * probed for its name and symbol (one batch to the node) and named here, unlisted. A contract
   * that answers neither is not asked again until a restart; one not answered (the node away) is
   * asked on the next pass.
   */
  async sweep(probes: ContractProbes): Promise<void> {
    const rows = await tokensAfter(this.db, this.sweptTo, SWEEP)
    this.sweptTo = rows.length < SWEEP ? new Uint8Array(0) : rows.at(-1)!.address
    const fresh = rows.map((row) => ({ address: lowerAddress(row.address), kind: row.kind })).filter(({ address }) => !this.named.has(address) && !this.registry.token(address))
    if (fresh.length === 0) return
    const generation = this.generation
    const probed = await probes.probe(fresh.map(({ address }) => address))
    if (generation !== this.generation) return
    for (const { address, kind } of fresh) {
      const probe = probed.get(address) ?? null
      if (probe === null || this.named.has(address)) continue
      this.named.add(address)
      const name = probe.name?.slice(0, NAME_BYTES_MAX) ?? null
      const symbol = probe.symbol?.slice(0, NAME_BYTES_MAX) ?? null
      if (!name && !symbol) continue
      const href = kind === 20 ? `/token/${address}` : `/nft/${address}`
      this.chain.add({ kind: 'token', title: name || symbol!, detail: symbol, address, href, listed: false }, [...(symbol ? [symbol] : []), ...(name ? wordKeys(name) : [])])
    }
  }

  private restart(): void {
    this.generation++
    this.named = new Set()
    this.sweptTo = new Uint8Array(0)
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

  private async each(range: { first: number; last: number }, address: Address | null, topic0: Uint8Array, use: (log: BareLog) => void): Promise<void> {
    const lastTxId = txId(range.last + 1, 0) - 1
    let afterTxId = txId(range.first, 0) - 1
    for (;;) {
      const logs = await logsWithTopicAfter(this.db, { topic0, address: address ? blob(address) : null, afterTxId, lastTxId, limit: PAGE })
      for (const log of logs) use(log)
      if (logs.length < PAGE) return
      afterTxId = logs.at(-1)!.txId
    }
  }

  private addLaunched(log: BareLog): void {
    const name = abiString(log.data, 0)
    const symbol = abiString(log.data, 1)
    if (!log.topic1 || name === null || symbol === null) return
    const address = lowerAddress(addressTopic(log.topic1))
    // The registry's word wins for an address it lists: a launch cannot rename a listed token.
    if (this.registry.token(address)) return
    this.symbols.set(address.toLowerCase(), symbol)
    this.named.add(address)
    this.chain.add({ kind: 'token', title: name, detail: symbol, address, href: `/token/${address}`, listed: false }, [symbol, ...wordKeys(name)])
  }

  private addName(log: BareLog): void {
    const label = abiString(log.data, 0)
    if (label === null || label === '') return
    const name = `${label}.${NAME_SUFFIX}`
    this.chain.add({ kind: 'name', title: name, detail: null, address: null, href: `/name/${encodeURIComponent(label)}`, listed: null }, [name, label])
  }

  private addPair(log: BareLog): void {
    if (!log.topic1 || !log.topic2 || log.data.length < 64) return
    this.addExchange('pair', log.topic1, log.topic2, addressWord(log.data, 0), 'V2')
  }

  private addPool(log: BareLog): void {
    if (!log.topic1 || !log.topic2 || !log.topic3 || log.data.length < 64) return
    this.addExchange('pool', log.topic1, log.topic2, addressWord(log.data, 1), `${feePercent(intTopic(log.topic3))} · V3`)
  }

  /** A pair or pool, named by its tokens' symbols, found by them either way round. */
  private addExchange(kind: 'pair' | 'pool', first: Uint8Array, second: Uint8Array, contract: Uint8Array, detail: string): void {
    const [token0, token1] = [lowerAddress(addressTopic(first)), lowerAddress(addressTopic(second))]
    const address = lowerAddress(contract)
    const [a, b] = [this.symbolOf(token0), this.symbolOf(token1)]
    const listed = this.bothListed(token0, token1)
    this.chain.add({ kind, title: `${a}/${b}`, detail, address, href: `/exchange/${kind}/${address}`, listed }, [`${a}/${b}`, `${b}/${a}`])
  }

  private bothListed(token0: string, token1: string): boolean {
    return this.registry.token(token0) !== null && this.registry.token(token1) !== null
  }
}

/** Names longer than any query are not kept: nobody could type them whole. */
const NAME_BYTES_MAX = 4 * QUERY_MAX
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The string that is the `index`-th parameter of event data (its word holds the offset of a
 * length and the bytes); null for data that does not hold one, a string over NAME_BYTES_MAX
 * bytes, or bytes that are not UTF-8: any contract may emit any data under a topic. Read by hand:
 * viem's decoder takes about a hundred times as long, which counts at 100,000 launches.
 */
function abiString(data: Uint8Array, index: number): string | null {
  const offset = smallInt(data, index)
  if (offset < 0 || offset % 32 !== 0 || offset + 32 > data.length) return null
  const length = smallInt(data, offset / 32)
  if (length < 0 || length > NAME_BYTES_MAX || offset + 32 + length > data.length) return null
  try {
    return utf8.decode(data.subarray(offset + 32, offset + 32 + length))
  } catch {
    return null
  }
}

const shortAddress = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`

/**
 * The chain's entries keep their addresses in lower case: a checksum is a hash, and 100,000
 * launches would cost seconds of them. A result is checksummed as it is answered (`present`).
 */
const lowerAddress = (bytes: Uint8Array) => `0x${addressKey(bytes)}` as Address

/** An entry as the answer gives it: its address, and the address in its page's path, checksummed. */
export function present(entry: SearchResult): SearchResult {
  if (entry.address === null) return entry
  const address = checksum(entry.address)
  return address === entry.address ? entry : { ...entry, address, href: entry.href.replace(entry.address, address) }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index])
}
