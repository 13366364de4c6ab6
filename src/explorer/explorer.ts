import type { SpoolDb } from '../spool/engine.ts'
import { getAddress, type Address } from 'viem'
import type { ServiceContext } from '../context.ts'
import type { RegistryCopy } from '../registry/copy.ts'
import type { Spool } from '../spool/spool.ts'
import { createContractBook, type ContractBook } from '../contracts/book.ts'
import { AnswerCache } from '../http/answerCache.ts'
import { ExchangeNames } from './exchangeNames.ts'
import { KnownContracts } from './known.ts'
import { LiveHub } from './live.ts'
import { METADATA_DEFAULTS, NftMetadata, type MetadataOptions } from './nftMetadata.ts'
import { LiveNode } from './node.ts'
import { ContractProbes } from './probes.ts'
import { RegistryView } from './registryView.ts'
import { SearchCatalog } from './search/catalog.ts'
import { ReverseNames } from './reverseNames.ts'
import { StatsService } from './stats.ts'
import { ChainTally } from './tally.ts'

/** Timings of the explorer, as docs/explorer.md gives them; tests shorten some. */
export type ExplorerTimings = {
  /** The stats cache (about 0.6 s) and the background recompute (once a second). */
  statsCacheMs: number
  statsIntervalMs: number
  /** Answers kept about 3 s on the address, token and NFT routes, 15 s on a collection. */
  answerCacheMs: number
  collectionCacheMs: number
  metadata: MetadataOptions
}

export const EXPLORER_TIMINGS: ExplorerTimings = {
  statsCacheMs: 600,
  statsIntervalMs: 1000,
  answerCacheMs: 3000,
  collectionCacheMs: 15_000,
  metadata: METADATA_DEFAULTS,
}

/** Everything the explorer's routes read from: the spool, the registry, the node, and the caches. */
export type Explorer = {
  db: SpoolDb
  /** The contracts of the name service and the fee layer the config names; null: the chain has none. */
  contracts: { nameRegistry: Address | null; feeRouter: Address | null }
  registry: RegistryView
  node: LiveNode
  stats: StatsService
  live: LiveHub
  probes: ContractProbes
  metadata: NftMetadata
  /** The exchange's pairs and pools, to name them by their tokens (exchangeNames.ts). */
  exchange: ExchangeNames
  /** The names addresses go by, for the pages' rows. */
  names: ReverseNames
  /** What the stack knows of each contract (its verification, a like one's, an artifact's, its proxy): the one book of the stack. */
  book: ContractBook
  /** The gas a read of a contract may use (explorer.callGasCap). */
  callGasCap: number
  /**
   * The node for reads of contracts (the Read tab): apart from `node`, so that a read that runs
   * out its time limit does not make every other request skip the node for a while.
   */
  callNode: LiveNode
  /** What the contract book knows of the contracts a transaction or a list calls, for decoding. */
  known: KnownContracts
  timings: ExplorerTimings
  /** The names a search finds (tokens, tags, `.bx` names, pairs and pools), in memory. */
  search: SearchCatalog
  /** Answers kept a few seconds (docs/explorer.md), keyed by route and paging: an address, a transaction, the token lists, an NFT. */
  answers: AnswerCache
  /** Collections, kept 15 s. */
  collections: AnswerCache
  /**
   * Answers read from the spool alone (the lists, the overview), kept while the spool holds
   * the same and at most as long as the stats: a new block is in the next answer.
   */
  lists: AnswerCache
  start: () => void
  stop: () => void
}

export function createExplorer(context: ServiceContext, spool: Spool, copy: RegistryCopy, timings: Partial<ExplorerTimings> = {}): Explorer {
  const { config, log } = context
  const t = { ...EXPLORER_TIMINGS, ...timings }
  const db = spool.reader
  const node = new LiveNode(config.chain.rpc, config.explorer.nodeTimeoutMs)
  let warned = false
  const stats = new StatsService(
    db,
    spool.health,
    new ChainTally(db),
    node,
    (error) => {
      // Once: a spool that cannot be read fails every second, and one line says it.
      if (!warned) log.warn({ service: 'explorer', err: error }, 'the explorer stats could not be computed; retrying every second')
      warned = true
    },
    t.statsCacheMs,
  )
  const contract = (address: string) => (address ? getAddress(address) : null)
  const nameRegistry = contract(config.explorer.nameRegistry)
  // The composition root's book; one of the explorer's own when it runs alone (a test's).
  const book = context.book ?? createContractBook(db, { chain: context.chain })
  const registry = new RegistryView(copy)
  // The factories are the exchange index's settings; read here as settings, the index is not asked.
  const search = new SearchCatalog(db, registry, { v2Factory: contract(config.exchange.v2Factory), v3Factory: contract(config.exchange.v3Factory), nameRegistry }, spool.version)
  let searchTimer: ReturnType<typeof setInterval> | null = null
  const probes = new ContractProbes(node, t.answerCacheMs)
  return {
    db,
    contracts: { nameRegistry, feeRouter: contract(config.explorer.feeRouter) },
    registry,
    node,
    stats,
    live: new LiveHub(stats, config.explorer.liveSeconds),
    probes,
    metadata: new NftMetadata(node, t.metadata),
    names: new ReverseNames(node, nameRegistry, t.answerCacheMs),
    exchange: new ExchangeNames(db, { v2: contract(config.exchange.v2Factory), v3: contract(config.exchange.v3Factory), weth: contract(config.exchange.weth) }, t.answerCacheMs),
    callGasCap: config.explorer.callGasCap,
    callNode: new LiveNode(config.chain.rpc, config.explorer.nodeTimeoutMs),
    book,
    known: new KnownContracts(book, t.answerCacheMs),
    timings: t,
    search,
    answers: new AnswerCache(() => 0, t.answerCacheMs),
    collections: new AnswerCache(() => 0, t.collectionCacheMs),
    lists: new AnswerCache(spool.version, t.statsCacheMs),
    start: () => {
      stats.start(t.statsIntervalMs)
      let sweeping = false
      searchTimer = setInterval(() => {
        search.refresh().catch((error: unknown) => log.warn({ service: 'explorer', err: error }, 'the search index could not be brought up to the spool; the next query tries again'))
        // The sweep waits on the node: one at a time, never holding up the next refresh.
        if (sweeping) return
        sweeping = true
        search
          .sweep(probes)
          .catch((error: unknown) => log.warn({ service: 'explorer', err: error }, 'the search could not name the tokens seen; the next turn tries again'))
          .finally(() => (sweeping = false))
      }, 1000)
    },
    stop: () => {
      stats.stop()
      if (searchTimer) clearInterval(searchTimer)
      searchTimer = null
    },
  }
}
