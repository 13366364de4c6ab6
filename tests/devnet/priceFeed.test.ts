import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parseUnits, type Address, type Hex } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { keepFeedFresh, walk, type FeedKeeper } from '../../src/devnet/priceFeed.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { captureLog } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'

// The keeper of the dev chain's price feed on a real anvil (a round mined as it is sent), its
// clock moved on by anvil's time travel.

const abi = ours.EthUsdFeed.abi
const START = parseUnits('3000', 8)
let chain: DevChain
let feed: Address

beforeAll(async () => {
  chain = await startDevChain({ seed: false })
  feed = chain.manifest.contracts.EthUsdFeed
  await chain.write(devAccounts.treasury, feed, abi, 'update', [START])
}, 60_000)
afterAll(async () => {
  await chain?.stop()
})

const latest = async () => {
  const [round, answer, , updatedAt] = await chain.read<readonly [bigint, bigint, bigint, bigint, bigint]>(feed, abi, 'latestRoundData')
  return { round, answer, updatedAt }
}

async function keeping(pinned: boolean, use: (keeper: FeedKeeper, lines: Record<string, unknown>[]) => Promise<void>) {
  const { log, lines } = captureLog('debug')
  const keeper = keepFeedFresh({ rpcUrl: chain.rpcUrl, feed, owner: devAccounts.treasury.address, maxAgeSeconds: 3600, pinned, log, pollMs: 20 })
  try {
    await use(keeper, lines)
  } finally {
    await keeper.stop()
  }
}

describe('the price feed kept fresh by chain time', () => {
  test('a round once the answer is older than half the allowed age at a new head, pinned: the same answer', async () => {
    await keeping(true, async () => {
      const first = await latest()
      await chain.advanceTime(1700)
      await Bun.sleep(300)
      expect((await latest()).round).toBe(first.round)
      await chain.advanceTime(200)
      const next = await waitFor(async () => {
        const now = await latest()
        return now.round > first.round ? now : null
      }, 'a new round')
      expect(next.round).toBe(first.round + 1n)
      expect(next.answer).toBe(first.answer)
      // One round for one stale head, not one per poll.
      await Bun.sleep(300)
      expect((await latest()).round).toBe(next.round)
    })
  }, 30_000)

  test('the treasury posts the rounds, through the node that numbers them: the deployer and the faucet operator send nothing', async () => {
    const { publicClient } = chain.clients
    const count = (address: Address) => publicClient.getTransactionCount({ address })
    const [deployer, operator] = await Promise.all([count(devAccounts.deployer.address), count(devAccounts.operator.address)])
    await keeping(false, async (_, lines) => {
      const first = await latest()
      for (let jump = 0; jump < 3; jump++) {
        const before = (await latest()).round
        await chain.advanceTime(3 * 3600)
        await waitFor(async () => (await latest()).round > before, 'a new round')
      }
      const now = await latest()
      expect(now.round).toBe(first.round + 3n)
      expect(now.answer).not.toBe(first.answer)
      const block = await publicClient.getBlock({ blockTag: 'latest', includeTransactions: true })
      const round = block.transactions.find((tx) => tx.to?.toLowerCase() === feed.toLowerCase())
      expect(round?.from.toLowerCase()).toBe(devAccounts.treasury.address.toLowerCase())
      // One line at info when it starts; the later rounds at debug.
      expect(lines.filter((line) => line.level === 30)).toHaveLength(1)
      expect(lines.filter((line) => line.level === 20 && line.msg === 'price feed round posted')).toHaveLength(2)
    })
    expect([await count(devAccounts.deployer.address), await count(devAccounts.operator.address)]).toEqual([deployer, operator])
    // A signer keeping its own nonces from the node's count is not disturbed.
    const hash: Hex = await chain.clients.walletFor(devAccounts.treasury).sendTransaction({ to: devAccounts.alice.address, value: 1n, account: devAccounts.treasury, chain: chain.clients.chain })
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).toBe('success')
  }, 30_000)
})

describe('the walk', () => {
  test('moves each round by 5 to 25 basis points, the same on every run, never 5 % from where it started', () => {
    let answer = START
    const seen: bigint[] = []
    for (let round = 2n; round < 2000n; round++) {
      const next = walk(answer, START, round)
      expect(next).toBe(walk(answer, START, round))
      const bps = ((next > answer ? next - answer : answer - next) * 10_000n) / answer
      const clamped = next === (START * 95n) / 100n || next === (START * 105n) / 100n
      if (!clamped) {
        expect(bps).toBeGreaterThanOrEqual(4n)
        expect(bps).toBeLessThanOrEqual(25n)
      }
      expect(next).toBeGreaterThanOrEqual((START * 95n) / 100n)
      expect(next).toBeLessThanOrEqual((START * 105n) / 100n)
      seen.push(next)
      answer = next
    }
    // Up and down both.
    expect(seen.some((value, index) => index > 0 && value > seen[index - 1]!)).toBe(true)
    expect(seen.some((value, index) => index > 0 && value < seen[index - 1]!)).toBe(true)
  })
})

describe('the price feed kept fresh across a reset', () => {
  test('a round sent and then taken back with the chain does not hold up the next', async () => {
    const { testClient } = chain.clients
    const back = await testClient.snapshot()
    // A long way on, so that the chain goes back far below where the round is sent.
    await chain.mine(20)
    await keeping(false, async () => {
      const before = await latest()
      await testClient.setAutomine(false)
      try {
        await chain.advanceTime(3 * 3600)
        // Sent, never mined: the pool takes it.
        const sent = (blockTag: 'pending' | 'latest') => chain.clients.publicClient.getTransactionCount({ address: devAccounts.treasury.address, blockTag })
        await waitFor(async () => (await sent('pending')) > (await sent('latest')), 'the round in the pool')
        await testClient.revert({ id: back })
        // A revert leaves the pool as it is (the round would land in the next block): dropped from
        // it, the round is sent and never mined.
        await chain.rpc.call('anvil_dropAllTransactions')
      } finally {
        await testClient.setAutomine(true)
      }
      expect((await latest()).round).toBeLessThanOrEqual(before.round)
      await chain.advanceTime(3 * 3600)
      await waitFor(async () => (await latest()).round > before.round, 'a round on the chain as it went back', 5000)
    })
  }, 30_000)
})

describe('the price feed keeper when the node goes', () => {
  test('one failed poll (the node stopping with the stack) says nothing; a node gone for longer is said once', async () => {
    const { log, lines } = captureLog('debug')
    // A port nothing listens on: every poll fails the same way.
    const gone = Bun.serve({ port: 0, fetch: () => new Response('') })
    const rpcUrl = `http://127.0.0.1:${gone.port}`
    gone.stop(true)
    const warned = () => lines.filter((line) => line.msg === 'the price feed could not be kept fresh; trying again at the next head')
    const once = keepFeedFresh({ rpcUrl, feed, owner: devAccounts.treasury.address, maxAgeSeconds: 3600, pinned: true, log, pollMs: 200 })
    await Bun.sleep(300) // the span of one poll (at 200 ms), not of two
    await once.stop()
    expect(warned()).toHaveLength(0)

    const longer = keepFeedFresh({ rpcUrl, feed, owner: devAccounts.treasury.address, maxAgeSeconds: 3600, pinned: true, log, pollMs: 20 })
    try {
      await waitFor(() => warned().length > 0, 'the warning')
      await Bun.sleep(200) // ten more failed polls, for the same reason
      expect(warned()).toHaveLength(1)
    } finally {
      await longer.stop()
    }
  }, 30_000)
})
