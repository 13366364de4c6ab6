import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { uniswap } from '../../src/devnet/artifacts.ts'
import { devNode, type DevNode } from '../helpers/devChain.ts'
import { configDir, fromSource, ROOT, runOnce, startReadyStack, type ReadyStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// A `stack dev` session that runs for hours of chain time: after the seed, the same protocol
// activity again and again (swaps on a constant-product pair and a concentrated pool, a WETH
// deposit, a BX transfer) in a block every twenty, the chain's clock moved on six seconds a
// block, so that each stretch of 600 blocks is an hour. The streams keep the history of their
// versioned rows only as deep as spool.maxReorgDepth, and the reset point's state: from one
// hour to the next the blocks grow, the history does not.

const DEPTH = 16
const ROUNDS = 30
const EMPTY_PER_ROUND = 19
const STRETCH = ROUNDS * (1 + EMPTY_PER_ROUND)
const SECONDS_A_BLOCK = 6
const GAS = 400_000n

let stack: ReadyStack
let dir: string
let file: string
let node: DevNode
let spool: Database

beforeAll(async () => {
  // Blocks only when the test mines them: an hour a block leaves the chain to the test.
  ;({ dir, file } = configDir(`[dev]\nport = 0\nblockTime = 3600\n[spool]\nmaxReorgDepth = ${DEPTH}\n[registry]\nsource = "${ROOT}/registry"\n`))
  stack = await startReadyStack(fromSource, ['dev', '--config', file], { cwd: dir })
  node = devNode(stack.status.rpcUrl)
  spool = new Database(join(dir, 'data', 'spool.db'), { readonly: true })
}, 90_000)
afterAll(async () => {
  spool?.close()
  if (stack?.child.exitCode === null) await stack.stop()
})

const hex = (value: number | bigint) => `0x${value.toString(16)}`

/** The seeded protocol's activity, once, in one block: sent to the node's pool, then mined at the next time. */
async function activeBlock(round: number, contracts: Record<string, Address>, pair: Address, bxIsToken0: boolean) {
  const { treasury, alice, bob, carol } = devAccounts
  const sent: string[] = []
  const send = async (from: Address, to: Address, data: Hex, value = 0n) => {
    sent.push(await node.rpc.call<string>('eth_sendTransaction', [{ from, to, data, value: hex(value), gas: hex(GAS) }]))
  }
  const bx = contracts.BX!
  const weth = contracts.WETH9!
  await send(treasury.address, bx, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pair, 10n ** 18n] }))
  await send(treasury.address, pair, encodeFunctionData({ abi: uniswap.UniswapV2Pair.abi, functionName: 'swap', args: bxIsToken0 ? [0n, 10n ** 9n, treasury.address, '0x'] : [10n ** 9n, 0n, treasury.address, '0x'] }))
  const [tokenIn, tokenOut, amountIn] = round % 2 === 0 ? [weth, bx, 10n ** 15n] : [bx, weth, 10n ** 18n]
  await send(
    bob.address,
    contracts.SwapRouter!,
    encodeFunctionData({
      abi: uniswap.SwapRouter.abi,
      functionName: 'exactInputSingle',
      args: [{ tokenIn, tokenOut, fee: 3000, recipient: bob.address, deadline: 2n ** 64n, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
    }),
  )
  await send(carol.address, weth, '0xd0e30db0', 1n)
  await send(alice.address, bx, encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [bob.address, 1n] }))
  await node.rpc.call('evm_increaseTime', [SECONDS_A_BLOCK])
  await node.rpc.call('evm_mine')
  const block = (await node.rpc.call<{ transactions: string[] }>('eth_getBlockByNumber', ['latest', false]))!
  // All five in it (stack dev's price keeper may have put a round of the feed beside them).
  expect(sent).toHaveLength(5)
  expect(block.transactions).toEqual(expect.arrayContaining(sent))
}

/** An hour of chain time: each round an active block and nineteen empty ones, six seconds apart. */
async function anHour(contracts: Record<string, Address>, pair: Address, bxIsToken0: boolean) {
  for (let round = 0; round < ROUNDS; round++) {
    await activeBlock(round, contracts, pair, bxIsToken0)
    await node.rpc.call('anvil_mine', [hex(EMPTY_PER_ROUND), hex(SECONDS_A_BLOCK)])
  }
}

type Measure = { head: number; blocks: number; history: number; outside: number }

/** Once every stream has derived the head: the blocks, the history rows, and those neither of the reset point's state nor inside the window kept whole. */
async function measure(resetBlock: number): Promise<Measure> {
  const head = await node.head()
  const explorer = stack.status.services.explorer.url as string
  const exchange = stack.status.services.exchange.url as string
  await waitFor(
    async () => {
      const stats = (await (await fetch(`${explorer}/api/stats`)).json()) as { indexedBlock?: number; derivedLag?: number }
      const health = (await (await fetch(`${exchange}/health`)).json()) as { streams?: Record<string, { cursorBlock: number | null }> }
      return stats.indexedBlock === head && stats.derivedLag === 0 && Object.values(health.streams ?? {}).every((stream) => stream.cursorBlock === head)
    },
    'every stream at the head',
    30_000,
  )
  const tables = spool.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_history' ESCAPE '\\'").all().map((row) => row.name)
  expect(tables.length).toBeGreaterThanOrEqual(9)
  // The window kept whole: maxReorgDepth below the head, and the quarter of it the bound may move before it is applied again.
  const windowFrom = head - DEPTH - Math.ceil(DEPTH / 4)
  let history = 0
  let outside = 0
  for (const table of tables) {
    history += spool.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n
    outside += spool.query<{ n: number }, [number, number]>(`SELECT count(*) AS n FROM ${table} WHERE block <> ? AND block < ?`).get(resetBlock + 1, windowFrom)!.n
  }
  const blocks = spool.query<{ n: number }, []>('SELECT count(*) AS n FROM blocks').get()!.n
  return { head, blocks, history, outside }
}

test('through hours of a dev session the history stays bounded while the blocks grow', async () => {
  const contracts = stack.status.contracts as Record<string, Address>
  const resetBlock = stack.status.snapshot.block as number
  const pair = await node.read<Address>(contracts.UniswapV2Factory!, uniswap.UniswapV2Factory.abi, 'getPair', [contracts.BX, contracts.WETH9])
  const bxIsToken0 = contracts.BX!.toLowerCase() < contracts.WETH9!.toLowerCase()

  await anHour(contracts, pair, bxIsToken0)
  const first = await measure(resetBlock)
  await anHour(contracts, pair, bxIsToken0)
  const second = await measure(resetBlock)

  expect(second.blocks - first.blocks).toBe(STRETCH)
  expect(second.head - first.head).toBe(STRETCH)
  // Nothing outside the window but the reset point's state, and no more rows an hour later.
  expect({ first: first.outside, second: second.outside }).toEqual({ first: 0, second: 0 })
  expect(second.history - first.history).toBeLessThanOrEqual(STRETCH / 20)
}, 60_000)

test('stack status shows the spool size: the file and its log, in bytes with --json', async () => {
  const json = await runOnce(fromSource, ['status', '--json', '--config', file], { cwd: dir })
  expect(json.code).toBe(0)
  const { spool: size } = JSON.parse(json.stdout) as { spool: { path: string; bytes: number; fileBytes: number; walBytes: number } }
  expect(size.path).toBe(join(dir, 'data', 'spool.db'))
  expect(size.fileBytes).toBeGreaterThan(100_000)
  expect(size.bytes).toBe(size.fileBytes + size.walBytes)
  const text = await runOnce(fromSource, ['status', '--config', file], { cwd: dir })
  expect(text.stdout).toMatch(new RegExp(`\\n  spool      ${size.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\d+\\.\\d (KiB|MiB) \\(file \\d+\\.\\d (KiB|MiB), log [\\d.]+ (B|KiB|MiB)\\)\\n`))
})
