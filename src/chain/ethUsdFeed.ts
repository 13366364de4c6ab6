import { decodeFunctionResult, encodeFunctionData, parseAbi, type Address, type Hex } from 'viem'
import { createCache, type Clock } from '../cache.ts'
import { NodeUnreachableError } from '../errors.ts'
import { createRpc, type RpcResult } from './rpc.ts'

/** Dollars per ether as an exact fraction. */
export type Fraction = { numerator: bigint; denominator: bigint }

/** A price with the chain time (unix seconds) of the feed answer it came from. */
export type FeedPrice = { price: Fraction; updatedAt: bigint }

/** The part of Chainlink's AggregatorV3Interface the stack reads. */
export const aggregatorV3Abi = parseAbi([
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
  'function version() view returns (uint256)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function getRoundData(uint80 roundId) view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
])

/** A feed's latest answer and the chain's time when it was read. */
export type FeedReading = { answer: bigint; decimals: number; updatedAt: bigint; chainTime: bigint }

/**
 * Dollars per ether from a feed reading: the answer scaled by the feed's decimals. null, never
 * 0, when the answer is not positive or older than `maxAgeSeconds` of chain time (the node's
 * latest block), so a feed nobody updates stops giving dollar figures instead of stale ones.
 */
export function feedPrice(reading: FeedReading | null, maxAgeSeconds: number): Fraction | null {
  if (!reading || reading.answer <= 0n || reading.updatedAt === 0n) return null
  if (reading.chainTime - reading.updatedAt > BigInt(maxAgeSeconds)) return null
  return { numerator: reading.answer, denominator: 10n ** BigInt(reading.decimals) }
}

/** How long one reading serves every request. */
const READING_KEPT_MS = 1000
/** How many times that a reading still answers while the next one is on its way. */
const LAST_READING_SERVES = 5
/** The one key of the reading's cache. */
const READING = 'ETH/USD'

export type EthUsdFeedOptions = { rpcUrl: string; feed: Address | null; maxAgeSeconds: number; timeoutMs?: number; keptMs?: number; clock?: Clock }

/**
 * ethUsd as the exchange index's routes ask for it: the price of ethUsdFeedReading, null
 * whenever that has none.
 */
export function ethUsdFeed(options: EthUsdFeedOptions): () => Promise<Fraction | null> {
  const read = ethUsdFeedReading(options)
  return async () => (await read())?.price ?? null
}

/**
 * The price feed's latest fresh answer with its time, read through the node: its latest round,
 * its decimals and the latest block's time in one JSON-RPC batch, the answer kept for a second
 * and shared by the requests that ask meanwhile (and for a few seconds more while the next
 * reading is on its way, so a slow node delays no answer). null with no feed configured, a feed
 * that does not answer (no code, a revert, no round yet), a stale or non-positive answer, and
 * while the node cannot be reached.
 */
export function ethUsdFeedReading({ rpcUrl, feed, maxAgeSeconds, timeoutMs = 3000, keptMs = READING_KEPT_MS, clock }: EthUsdFeedOptions): () => Promise<FeedPrice | null> {
  if (!feed) return async () => null
  const rpc = createRpc(rpcUrl, { timeoutMs })
  const call = (functionName: 'latestRoundData' | 'decimals') => ({
    method: 'eth_call',
    params: [{ to: feed, data: encodeFunctionData({ abi: aggregatorV3Abi, functionName }) }, 'latest'],
  })
  const read = async (): Promise<FeedReading | null> => {
    let results: RpcResult[]
    try {
      results = await rpc.batch([call('latestRoundData'), call('decimals'), { method: 'eth_getBlockByNumber', params: ['latest', false] }])
    } catch (error) {
      if (error instanceof NodeUnreachableError) return null
      throw error
    }
    const [round, decimals, block] = results
    if (!round?.ok || !decimals?.ok || !block?.ok) return null
    try {
      const [, answer, , updatedAt] = decodeFunctionResult({ abi: aggregatorV3Abi, functionName: 'latestRoundData', data: round.value as Hex })
      const places = decodeFunctionResult({ abi: aggregatorV3Abi, functionName: 'decimals', data: decimals.value as Hex })
      const chainTime = BigInt((block.value as { timestamp: Hex }).timestamp)
      return { answer, decimals: places, updatedAt, chainTime }
    } catch {
      // No code there (an empty answer), or not a feed.
      return null
    }
  }
  const kept = createCache<typeof READING, { reading: FeedPrice | null }>({
    max: 1,
    ttl: keptMs,
    clock,
    fetchMethod: async () => {
      const reading = await read()
      const price = feedPrice(reading, maxAgeSeconds)
      return { reading: price && reading ? { price, updatedAt: reading.updatedAt } : null }
    },
    // A read that throws leaves the last reading as it was.
    noDeleteOnFetchRejection: true,
  })
  return async () => {
    // While a new reading is on its way, a recent one answers rather than keep requests waiting
    // on a slow node (a hanging node is given `timeoutMs`); an older one is not worth showing.
    const recent = kept.getRemainingTTL(READING) > keptMs - keptMs * LAST_READING_SERVES
    return (await kept.fetch(READING, { allowStale: recent }))!.reading
  }
}
