import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { uniswap } from '../../src/devnet/artifacts.ts'
import { fillBlocks, sustainLoad } from '../helpers/chainLoad.ts'
import { decodeEvents, startDevChain, type DevChain } from '../helpers/devChain.ts'

type Block = { number: Hex; transactions: Array<{ hash: Hex; from: Hex; to: Hex }> }
type Receipt = { status: Hex; logs: Array<{ address: Hex; topics: Hex[]; data: Hex }> }

let chain: DevChain
beforeAll(async () => {
  chain = await startDevChain()
})
afterAll(async () => {
  await chain?.stop()
})

const blocksFrom = (from: number, to: number) =>
  Promise.all(Array.from({ length: to - from + 1 }, (_, index) => chain.rpc.call<Block>('eth_getBlockByNumber', [`0x${(from + index).toString(16)}`, true])))
const receiptsOf = (block: Block) => chain.rpc.call<Receipt[]>('eth_getBlockReceipts', [block.number])

test('fillBlocks mines blocks of exactly the size asked, each transfer to a fresh address of its own', async () => {
  const before = await chain.head()
  const progress: number[] = []
  const report = await fillBlocks(chain, { blocks: 3, txsPerBlock: 300, onProgress: ({ blocks }) => progress.push(blocks) })
  expect(report).toMatchObject({ firstBlock: before + 1, lastBlock: before + 3, blocks: 3, txs: 900, recipients: 900 })
  expect(progress).toEqual([1, 2, 3])
  expect(await chain.head()).toBe(before + 3)

  const blocks = await blocksFrom(before + 1, before + 3)
  const recipients = blocks.flatMap((block) => block.transactions.map((tx) => tx.to.toLowerCase()))
  expect(blocks.map((block) => block.transactions.length)).toEqual([300, 300, 300])
  expect(new Set(recipients).size).toBe(900)
  // Several senders, so one nonce queue is not the limit.
  expect(new Set(blocks[0]!.transactions.map((tx) => tx.from)).size).toBeGreaterThan(1)
  for (const block of blocks) expect((await receiptsOf(block)).every((receipt) => receipt.status === '0x1')).toBe(true)
  // Fresh: a recipient holds what it was sent and has never sent anything.
  const sample = blocks[1]!.transactions[7]!
  expect(await chain.rpc.call('eth_getBalance', [sample.to, 'latest'])).toBe((await chain.rpc.call<{ value: Hex }>('eth_getTransactionByHash', [sample.hash])).value)
  expect(await chain.rpc.call('eth_getTransactionCount', [sample.to, 'latest'])).toBe('0x0')
  // Automine is as it was: a lone transaction is mined at once.
  expect(await chain.test.getAutomine()).toBe(true)
})

test('swaps on the dev chain are part of the block and all succeed', async () => {
  const before = await chain.head()
  await fillBlocks(chain, { blocks: 2, txsPerBlock: 50, swaps: 3 })
  const blocks = await blocksFrom(before + 1, before + 2)
  expect(blocks.map((block) => block.transactions.length)).toEqual([50, 50])
  for (const block of blocks) {
    const receipts = await receiptsOf(block)
    expect(receipts.every((receipt) => receipt.status === '0x1')).toBe(true)
    const logs = receipts.flatMap((receipt) => receipt.logs) as unknown as Parameters<typeof decodeEvents>[1]
    // Two constant-product swaps and one concentrated swap in each block.
    expect(decodeEvents(uniswap.UniswapV2Pair.abi, logs, 'Swap')).toHaveLength(2)
    expect(decodeEvents(uniswap.UniswapV3Pool.abi, logs, 'Swap')).toHaveLength(1)
  }
})

test('sustainLoad produces a block of the size asked on its cadence until aborted', async () => {
  const before = await chain.head()
  const controller = new AbortController()
  setTimeout(() => controller.abort(), 1000)
  const started = Date.now()
  const produced = await sustainLoad(chain, { txsPerBlock: 100, blockMs: 200, signal: controller.signal })
  expect(Date.now() - started).toBeLessThan(2000)
  expect(produced.length).toBeGreaterThanOrEqual(3)
  expect(produced.length).toBeLessThanOrEqual(6)
  expect(produced.map((block) => block.number)).toEqual(produced.map((_, index) => before + 1 + index))
  expect(produced.every((block) => block.txs === 100)).toBe(true)
  expect(await chain.head()).toBe(before + produced.length)
  expect(await chain.test.getAutomine()).toBe(true)
})

test('a block that cannot fit under the gas limit is refused before anything is sent', async () => {
  const before = await chain.head()
  await expect(fillBlocks(chain, { blocks: 1, txsPerBlock: 2000 })).rejects.toThrow(/gas limit/)
  expect(await chain.head()).toBe(before)
  expect(await chain.test.getAutomine()).toBe(true)
})
