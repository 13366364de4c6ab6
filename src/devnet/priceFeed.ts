import { decodeFunctionResult, encodeFunctionData, type Address, type Hex } from 'viem'
import { createRpc } from '../chain/rpc.ts'
import { firstLine } from '../errors.ts'
import type { Logger } from '../log.ts'
import { ours } from './artifacts.ts'

export type FeedKeeperOptions = {
  rpcUrl: string
  feed: Address
  /** The feed's owner, one of the accounts the dev chain holds the key of (it signs the rounds). */
  owner: Address
  /** The oldest answer the exchange uses, in seconds of chain time: a round is posted at half of it. */
  maxAgeSeconds: number
  /** Each round repeats the last answer: the dollar figures do not move. */
  pinned: boolean
  log: Logger
  pollMs?: number
}

export type FeedKeeper = { stop: () => Promise<void> }

/** How far one round moves the price, at most, in basis points; and how far from where it started it may ever go. */
const STEP_BPS = 25n
const BOUND_PERCENT = 5n
/** Heads after which a round that was sent but never mined is given up and sent again. */
const GIVE_UP_HEADS = 3

/**
 * Keeps the dev chain's ETH/USD feed fresh by chain time, so a `stack dev` left running (or a
 * chain whose clock a test moved on) keeps its dollar figures: at each new head whose time is
 * more than half the allowed age past the feed's last round, a new round is posted. The price
 * moves a small step each round, the same steps on every run (a walk decided by the round's
 * number, never more than 5 % from where it started), unless pinned.
 *
 * The rounds are sent with eth_sendTransaction from the owner's account, which the dev chain
 * holds unlocked: the node numbers them, so no nonce is kept here, and the owner (the treasury)
 * sends nothing else once the seeding is done; the faucet's operator and the deployer are never
 * used. One line at info when the first round is posted, debug lines after.
 */
export function keepFeedFresh(options: FeedKeeperOptions): FeedKeeper {
  const { feed, owner, maxAgeSeconds, pinned, log } = options
  const rpc = createRpc(options.rpcUrl, { timeoutMs: 5000 })
  const latest = { to: feed, data: encodeFunctionData({ abi: ours.EthUsdFeed.abi, functionName: 'latestRoundData' }) }
  let lastHead = -1
  let sent: { hash: Hex; head: number } | null = null
  let anchor: bigint | null = null
  let started = false
  let failed: string | null = null

  const tick = async () => {
    const [block, round] = await rpc.batch([
      { method: 'eth_getBlockByNumber', params: ['latest', false] },
      { method: 'eth_call', params: [latest, 'latest'] },
    ])
    if (!block?.ok || !block.value) return
    const head = block.value as { number: Hex; timestamp: Hex }
    const number = Number(BigInt(head.number))
    if (number === lastHead) return
    lastHead = number
    if (sent) {
      // Waiting for the last round while it may still be mined; not once the chain went back
      // below where it was sent (a reset takes it away with the blocks after its point).
      const receipt = await rpc.call('eth_getTransactionReceipt', [sent.hash])
      if (!receipt && number >= sent.head && number < sent.head + GIVE_UP_HEADS) return
      sent = null
    }
    // No round yet (the call reverts) or no feed: nothing to move on from.
    if (!round?.ok) return
    const [roundId, answer, , updatedAt] = decodeFunctionResult({ abi: ours.EthUsdFeed.abi, functionName: 'latestRoundData', data: round.value as Hex }) as readonly [bigint, bigint, bigint, bigint, bigint]
    if (2n * (BigInt(head.timestamp) - updatedAt) <= BigInt(maxAgeSeconds)) return
    anchor ??= answer
    const next = pinned ? answer : walk(answer, anchor, roundId + 1n)
    const hash = await rpc.call<Hex>('eth_sendTransaction', [{ from: owner, to: feed, data: encodeFunctionData({ abi: ours.EthUsdFeed.abi, functionName: 'update', args: [next] }) }])
    sent = { hash, head: number }
    const fields = { feed, round: String(roundId + 1n), answer: String(next), head: number }
    if (started) log.debug(fields, 'price feed round posted')
    else {
      started = true
      log.info({ ...fields, maxAgeSeconds, pinned }, `keeping the price feed fresh: a new round whenever its answer is older than ${maxAgeSeconds / 2} s of chain time at a new head`)
    }
  }

  let running: Promise<void> = Promise.resolve()
  let failures = 0
  const timer = setInterval(() => {
    running = running.then(tick).then(
      () => {
        failed = null
        failures = 0
      },
      (error: unknown) => {
        // Said once per cause, and only from the second failure in a row: the node restarting,
        // or stopping with the stack (a Ctrl-C reaches anvil too), is not news.
        const reason = firstLine(error)
        if (++failures >= 2 && reason !== failed) {
          log.warn({ feed, reason }, 'the price feed could not be kept fresh; trying again at the next head')
          failed = reason
        }
      },
    )
  }, options.pollMs ?? 500)
  return {
    stop: async () => {
      clearInterval(timer)
      await running
    },
  }
}

/**
 * The next answer of a walk: `answer` moved by 5 to 25 basis points, up or down as the round's
 * number decides, held within 5 % of `anchor`.
 */
export function walk(answer: bigint, anchor: bigint, round: bigint): bigint {
  const mixed = (round * 2_654_435_761n) % 4_294_967_296n
  const size = 5n + (mixed % (STEP_BPS - 4n))
  const step = (mixed >> 7n) % 2n === 0n ? size : -size
  const moved = (answer * (10_000n + step)) / 10_000n
  const low = (anchor * (100n - BOUND_PERCENT)) / 100n
  const high = (anchor * (100n + BOUND_PERCENT)) / 100n
  return moved < low ? low : moved > high ? high : moved
}
