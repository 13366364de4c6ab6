import type { Chain } from '../chain/client.ts'
import { AnswerCache } from '../http/answerCache.ts'
import type { Config } from '../config/load.ts'
import { KeptTokenList } from '../registry/kept.ts'
import { databaseHealth, type Spool } from '../spool/spool.ts'
import { getAddress } from 'viem'
import { ethUsdFeed } from '../chain/ethUsdFeed.ts'
import type { Fraction } from './http/dollars.ts'
import { TokenBook } from './http/tokens.ts'
import { clQueries } from './read/cl.ts'
import { IndexReader } from './read/indexReader.ts'
import { v2Queries } from './read/v2.ts'
import { exchangeAddresses, type ExchangeAddresses } from './settings.ts'

/** What the routes read from: built once per app, shared by the `/` and `/api/` mounts. */
export type ExchangeDeps = {
  index: IndexReader
  v2: ReturnType<typeof v2Queries>
  cl: ReturnType<typeof clQueries>
  tokens: TokenBook
  /** The explorer's validated token list: listed means verified (docs/registry.md). */
  listed: KeptTokenList
  addresses: ExchangeAddresses
  /** The dollar price of one ether from the price feed, as an exact fraction; null when it cannot be derived. */
  ethUsd: () => Promise<Fraction | null>
  /** How the spool's writer stands (for the storage error in /health). */
  spoolHealth: Spool['health']
  /** On a database, the instance's role and who holds the indexer's lease (for /health); nothing on the embedded file. */
  databaseHealth: () => ReturnType<typeof databaseHealth>
  /**
   * The answers, kept while the spool holds the same and for a second at most (the token
   * metadata and the price feed are the node's): a new block is in the next answer.
   */
  answers: AnswerCache
}

/** How long an answer is kept at most while the spool does not change. */
const ANSWER_MAX_AGE_MS = 1000

export function exchangeDeps(config: Config, chain: Chain, spool: Spool): ExchangeDeps {
  const index = new IndexReader(spool.reader)
  const v2 = v2Queries(index)
  const cl = clQueries(index)
  const tokens = new TokenBook(chain.publicClient)
  const addresses = exchangeAddresses(config)
  const { ethUsdFeed: feed, ethUsdMaxAgeSeconds } = config.exchange
  const ethUsd = ethUsdFeed({ rpcUrl: chain.rpcUrl, feed: feed ? getAddress(feed) : null, maxAgeSeconds: ethUsdMaxAgeSeconds })
  const answers = new AnswerCache(spool.version, ANSWER_MAX_AGE_MS)
  return { index, v2, cl, tokens, listed: KeptTokenList.of(config), addresses, ethUsd, spoolHealth: spool.health, databaseHealth: () => databaseHealth(spool), answers }
}
