import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parseAbi, type Address } from 'viem'
import { findRunning } from '../../src/ops/runtime.ts'
import { resetStack } from '../../src/ops/reset.ts'
import { devNode, type DevNode } from '../helpers/devChain.ts'
import { configDir, fromSource, ROOT, runOnce, startReadyStack, type ReadyStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// One `stack dev` with the defaults that matter here (the explorer's 300 requests a minute, the
// feed's allowed age of an hour), used as a developer's week-long session uses it: the chain's
// clock travelled hours on, an hour of blocks mined, a test suite spending a client's minute, and
// a reset right after.

type Body = Record<string, any>
let stack: ReadyStack
let file: string
let dir: string
let node: DevNode
const url = (service: string) => stack.status.services[service].url as string
const get = async (address: string): Promise<Body> => (await fetch(address)).json() as Promise<Body>
const cli = (...args: string[]) => runOnce(fromSource, [...args, '--config', file], { cwd: dir })
const hex = (value: number) => `0x${value.toString(16)}`

const feedAbi = parseAbi(['function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)'])
const feed = () => stack.status.contracts.EthUsdFeed as Address
const latestRound = async () => {
  const [round, answer, , updatedAt] = await node.read<readonly [bigint, bigint, bigint, bigint, bigint]>(feed(), feedAbi, 'latestRoundData')
  return { round, answer, updatedAt }
}
const headTime = async () => Number((await node.clients.publicClient.getBlock({ blockTag: 'latest' })).timestamp)
/**
 * The exchange's dollar price of ether as the chain stands now: asked after more than five quiet
 * seconds, since the exchange answers from its last reading of the feed for up to five seconds
 * while the next is on its way. A round posted at a new head lands in the next block.
 */
const dollarsNow = async () => {
  await Bun.sleep(5_200)
  return (await get(`${url('exchange')}/stats`)).ethUsd as string | null
}

beforeAll(async () => {
  ;({ dir, file } = configDir(`[dev]\nport = 0\n[registry]\nsource = "${ROOT}/registry"\n`))
  stack = await startReadyStack(fromSource, ['dev', '--config', file], { cwd: dir })
  node = devNode(stack.status.rpcUrl)
}, 90_000)
afterAll(async () => {
  if (stack?.child.exitCode === null) await stack.stop()
})

describe('a stack dev session of hours of chain time', () => {
  test('the price feed is kept fresh by chain time, so the dollar figures stay', async () => {
    const seeded = await latestRound()
    expect(typeof (await get(`${url('exchange')}/stats`)).ethUsd).toBe('string')

    // An hour and ten minutes on (evm_increaseTime): past the feed's allowed age of an hour.
    await node.rpc.call('evm_increaseTime', [hex(4200)])
    await node.rpc.call('evm_mine')
    expect(await dollarsNow()).toMatch(/^\d+(\.\d+)?$/)
    const first = await latestRound()
    expect(first.round).toBeGreaterThan(seeded.round)
    // Written at the new time, not before the jump.
    expect(Number(first.updatedAt)).toBeGreaterThanOrEqual(Number(seeded.updatedAt) + 4200)

    // Two hours on at a set time (anvil_setNextBlockTimestamp).
    await node.rpc.call('anvil_setNextBlockTimestamp', [hex((await headTime()) + 7200)])
    await node.rpc.call('evm_mine')
    await waitFor(async () => (await latestRound()).round > first.round, 'a round after the second jump', 15_000)
    expect(await dollarsNow()).toMatch(/^\d+(\.\d+)?$/)
    const second = await latestRound()
    // Within half the allowed age of the head, and the price moves a little, never far.
    expect((await headTime()) - Number(second.updatedAt)).toBeLessThanOrEqual(1800)
    for (const { answer } of [first, second]) {
      expect(answer).toBeGreaterThan((seeded.answer * 90n) / 100n)
      expect(answer).toBeLessThan((seeded.answer * 110n) / 100n)
    }
    expect(new Set([seeded.answer, first.answer, second.answer]).size).toBeGreaterThan(1)

    // One line at info when the keeping starts, not one a round.
    const said = stack.log().filter((line) => line.includes('price feed') && line.includes('"level":30'))
    expect(said).toHaveLength(1)
  }, 60_000)

  test('after an hour of blocks and a client over its minute, reset and status do not wait on the limit', async () => {
    // An hour of blocks, a second apart, as `stack dev` makes them. anvil takes longer over each
    // block as the chain grows (about 50 s for these on a quiet machine): in steps, each well
    // within a request's time.
    const before = await node.head()
    for (let step = 0; step < 36; step++) await node.rpc.call('anvil_mine', [hex(100), hex(1)])
    const head = before + 3600
    await waitFor(async () => (await get(`${url('exchange')}/health`)).spoolHeadBlock >= head, 'the spool at the hour of blocks', 120_000)
    expect(await dollarsNow()).toMatch(/^\d+(\.\d+)?$/)

    // 1,000 requests from this one client, all in one wall-clock minute (started in its first
    // half: a busy machine may take seconds over them).
    if (Date.now() % 60_000 > 30_000) await Bun.sleep(60_000 - (Date.now() % 60_000) + 100)
    const statuses: number[] = []
    for (let batch = 0; batch < 20; batch++) {
      statuses.push(...(await Promise.all(Array.from({ length: 50 }, async () => (await fetch(`${url('explorer')}/api/stats`)).status))))
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(300)
    expect(statuses.filter((status) => status === 429)).toHaveLength(700)

    const found = findRunning(stack.status.dataDir)
    if (!found.running) throw new Error(found.reason)
    const started = performance.now()
    const reset = await resetStack(found.runtime, { timeoutMs: 60_000 })
    const seconds = (performance.now() - started) / 1000
    expect(seconds).toBeLessThan(2)
    expect(reset.resetBlock).toBe(stack.status.snapshot.block)
    expect(reset.head).toBeLessThan(head)
    // Still the same minute: the client is still refused, and the operator's commands were not.
    expect((await fetch(`${url('explorer')}/api/stats`)).status).toBe(429)
    const status = await cli('status', '--json')
    expect(status.code).toBe(0)
    expect(JSON.parse(status.stdout).services.explorer).toMatchObject({ healthy: true })
    expect(JSON.parse(status.stdout).services.explorer.lagBlocks).toBeLessThanOrEqual(2)
  }, 300_000)
})
