import { encodeFunctionData, erc20Abi, parseEther, type Address, type Hex } from 'viem'
import type { RpcCall } from '../../src/chain/rpc.ts'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { uniswap } from '../../src/devnet/artifacts.ts'
import type { Manifest } from '../../src/devnet/deploy.ts'
import type { SeedReport } from '../../src/devnet/seed.ts'
import { bigQuantity, quantity } from '../../src/eth/quantity.ts'
import type { DevNode } from './devChain.ts'

/**
 * Load for a running anvil: blocks of many transactions, as a busy chain makes them. Every block
 * is built the same way: automine off, the block's transactions sent in large JSON-RPC batches
 * (eth_sendTransaction from impersonated senders, each with its own nonce queue, gas and fees
 * given so the node estimates nothing), then one block mined and its transaction count checked.
 * Value transfers go to fresh random addresses, so the number of accounts grows with the chain.
 * On a node with the dev contract set, swaps on its constant-product pairs and concentrated pools
 * can be mixed in.
 */

/** A node to load: any dev node; swaps need the dev contract set and its seed (a DevChain). */
export type LoadNode = DevNode & { manifest?: Manifest; seed?: SeedReport | null }

export type FillOptions = {
  blocks: number
  /** Transactions in each block, swaps included. */
  txsPerBlock: number
  /**
   * Swaps in each block, alternating a constant-product swap (a token transfer into the pair and
   * the pair's swap: two transactions) and a concentrated one through the router (one); they
   * need the dev contract set. None by default.
   */
  swaps?: number
  /** Called after each block. */
  onProgress?: (progress: FillProgress) => void
}

export type FillProgress = { blocks: number; txs: number; seconds: number }

export type FillReport = {
  firstBlock: number
  lastBlock: number
  blocks: number
  txs: number
  /** Fresh addresses that received a transfer. */
  recipients: number
  seconds: number
  txsPerSecond: number
}

export type SustainOptions = {
  txsPerBlock: number
  /** A block is started every `blockMs`; a block that takes longer is followed at once. */
  blockMs: number
  signal: AbortSignal
  swaps?: number
}

export type SustainedBlock = { number: number; txs: number; minedAt: number }

/** Senders of the value transfers, each an impersonated account with its own nonce queue. */
const SENDERS = Array.from({ length: 8 }, (_, index) => `0x10ad${'0'.repeat(32)}${(index + 1).toString(16).padStart(4, '0')}` as Address)
const SENDER_BALANCE = parseEther('1000000')
/** Transactions per JSON-RPC request; a block's requests are in flight together. */
const BATCH = 250
const TRANSFER_GAS = 21_000n
const SWAP_GAS = 300_000n
const MAX_DEADLINE = 2n ** 64n

const hex = (value: number | bigint): Hex => `0x${value.toString(16)}`

/** Fills `blocks` blocks of `txsPerBlock` transactions each; throws if a mined block holds any other number. */
export async function fillBlocks(node: LoadNode, options: FillOptions): Promise<FillReport> {
  const { blocks, txsPerBlock, swaps = 0, onProgress } = options
  const loader = await prepareLoader(node, txsPerBlock, swaps)
  const started = performance.now()
  let firstBlock = -1
  let lastBlock = -1
  try {
    for (let done = 0; done < blocks; done++) {
      const block = await loader.block()
      if (block.txs !== txsPerBlock) throw new Error(`block ${block.number} holds ${block.txs} transactions, not ${txsPerBlock}`)
      if (firstBlock < 0) firstBlock = block.number
      lastBlock = block.number
      onProgress?.({ blocks: done + 1, txs: (done + 1) * txsPerBlock, seconds: (performance.now() - started) / 1000 })
    }
  } finally {
    await loader.finish()
  }
  const seconds = (performance.now() - started) / 1000
  return { firstBlock, lastBlock, blocks, txs: blocks * txsPerBlock, recipients: loader.recipients(), seconds, txsPerSecond: (blocks * txsPerBlock) / seconds }
}

/**
 * Produces a block of `txsPerBlock` transactions every `blockMs` until `signal` aborts (the block
 * being built is finished first); gives the blocks it produced, with the number of transactions
 * each holds and when it was mined (ms since the epoch).
 */
export async function sustainLoad(node: LoadNode, options: SustainOptions): Promise<SustainedBlock[]> {
  const { txsPerBlock, blockMs, signal, swaps = 0 } = options
  const loader = await prepareLoader(node, txsPerBlock, swaps)
  const produced: SustainedBlock[] = []
  try {
    let next = performance.now()
    while (!signal.aborted) {
      const wait = next - performance.now()
      if (wait > 0) await sleepUnless(wait, signal)
      if (signal.aborted) break
      next = Math.max(next + blockMs, performance.now())
      produced.push(await loader.block())
    }
  } finally {
    await loader.finish()
  }
  return produced
}

function sleepUnless(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
  })
}

type Loader = {
  /** Sends one block's transactions, mines it and reads back its number and transaction count. */
  block: () => Promise<SustainedBlock>
  recipients: () => number
  /** Turns automine back to what it was. */
  finish: () => Promise<void>
}

async function prepareLoader(node: LoadNode, txsPerBlock: number, swapsPerBlock: number): Promise<Loader> {
  const { rpc, test } = node
  const swaps = swapsPerBlock > 0 ? await swapMaker(node) : null
  const automine = await test.getAutomine()
  await test.setAutomine(false)
  try {
    const latest = await rpc.call<{ gasLimit: Hex; baseFeePerGas?: Hex }>('eth_getBlockByNumber', ['latest', false])
    const swapTxs = swaps ? swaps.txsFor(swapsPerBlock) : 0
    if (swapTxs > txsPerBlock) throw new Error(`${swapsPerBlock} swaps take ${swapTxs} transactions, more than the ${txsPerBlock} of a block`)
    const gas = BigInt(txsPerBlock - swapTxs) * TRANSFER_GAS + BigInt(swapTxs) * SWAP_GAS
    if (gas > BigInt(latest.gasLimit)) {
      throw new Error(`${txsPerBlock} transactions need up to ${gas} gas, over the block gas limit of ${BigInt(latest.gasLimit)}: start anvil with --gas-limit`)
    }
    const setup = await rpc.batch(
      SENDERS.flatMap((address) => [
        { method: 'anvil_impersonateAccount', params: [address] },
        { method: 'anvil_setBalance', params: [address, hex(SENDER_BALANCE)] },
      ]),
    )
    for (const answer of setup) if (!answer.ok) throw answer.error
    const counts = await rpc.batch(SENDERS.map((address) => ({ method: 'eth_getTransactionCount', params: [address, 'pending'] })))
    const nonces = counts.map((answer) => {
      if (!answer.ok) throw answer.error
      return quantity(answer.value as Hex)
    })
    let baseFee = bigQuantity(latest.baseFeePerGas)
    let recipients = 0

    const block = async (): Promise<SustainedBlock> => {
      // Twice the base fee: the next block's is at most an eighth above this one's.
      const fees = { maxFeePerGas: hex(baseFee * 2n + 1_000_000_000n), maxPriorityFeePerGas: hex(0) }
      const calls: RpcCall[] = swaps ? swaps.calls(swapsPerBlock, fees) : []
      for (let index = calls.length; index < txsPerBlock; index++) {
        const sender = index % SENDERS.length
        calls.push({
          method: 'eth_sendTransaction',
          params: [{ from: SENDERS[sender], to: freshAddress(), value: hex(index + 1), gas: hex(TRANSFER_GAS), nonce: hex(nonces[sender]!++), ...fees }],
        })
        recipients++
      }
      const batches: RpcCall[][] = []
      for (let at = 0; at < calls.length; at += BATCH) batches.push(calls.slice(at, at + BATCH))
      const answers = (await Promise.all(batches.map((batch) => rpc.batch(batch)))).flat()
      for (const answer of answers) if (!answer.ok) throw answer.error
      await rpc.call('evm_mine', [])
      const mined = await rpc.call<{ number: Hex; transactions: Hex[]; baseFeePerGas?: Hex }>('eth_getBlockByNumber', ['latest', false])
      baseFee = bigQuantity(mined.baseFeePerGas)
      return { number: quantity(mined.number), txs: mined.transactions.length, minedAt: Date.now() }
    }

    return {
      block,
      recipients: () => recipients,
      finish: async () => {
        await test.setAutomine(automine)
      },
    }
  } catch (error) {
    await test.setAutomine(automine)
    throw error
  }
}

/** A fresh random address: 160 random bits, so no two are alike and none has been used before. */
function freshAddress(): Address {
  return `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(20))).toString('hex')}`
}

/**
 * Swaps selling a little BX from the treasury, as the seed's swaps do: on a constant-product pair
 * by paying the pair and calling its swap for slightly less than the pair's price gives (the
 * amount out is worked out once, from the reserves at the start), and on a concentrated pool
 * through the swap router, which the seed approved for the treasury.
 */
async function swapMaker(node: LoadNode) {
  if (!node.manifest || !node.seed) throw new Error('swaps need the dev contract set and its seed (a DevChain)')
  const { BX, SwapRouter } = node.manifest.contracts
  const pairAbi = uniswap.UniswapV2Pair.abi
  const poolAbi = uniswap.UniswapV3Pool.abi
  const treasury = devAccounts.treasury.address
  const amountIn = parseEther('1')
  const bx = BX.toLowerCase()

  const pairs: Array<{ pair: Address; data: Hex }> = []
  for (const pair of node.seed.v2Pairs) {
    const [token0, token1] = await Promise.all([node.read<Address>(pair, pairAbi, 'token0'), node.read<Address>(pair, pairAbi, 'token1')])
    const bxIs0 = token0.toLowerCase() === bx
    if (!bxIs0 && token1.toLowerCase() !== bx) continue
    const [reserve0, reserve1] = await node.read<[bigint, bigint, number]>(pair, pairAbi, 'getReserves')
    const [reserveIn, reserveOut] = bxIs0 ? [reserve0, reserve1] : [reserve1, reserve0]
    // Half of what the price gives: the pair's price moves with every swap of the fill.
    const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n) / 2n
    pairs.push({ pair, data: encodeFunctionData({ abi: pairAbi, functionName: 'swap', args: bxIs0 ? [0n, amountOut, treasury, '0x'] : [amountOut, 0n, treasury, '0x'] }) })
  }
  const pools: Hex[] = []
  for (const pool of node.seed.v3Pools) {
    const [token0, token1, fee] = await Promise.all([node.read<Address>(pool, poolAbi, 'token0'), node.read<Address>(pool, poolAbi, 'token1'), node.read<number>(pool, poolAbi, 'fee')])
    if (token0.toLowerCase() !== bx && token1.toLowerCase() !== bx) continue
    const tokenOut = token0.toLowerCase() === bx ? token1 : token0
    pools.push(
      encodeFunctionData({
        abi: uniswap.SwapRouter.abi,
        functionName: 'exactInputSingle',
        args: [{ tokenIn: BX, tokenOut, fee, recipient: treasury, deadline: MAX_DEADLINE, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
      }),
    )
  }
  if (pairs.length === 0 || pools.length === 0) throw new Error('the dev chain has no BX pair or pool to swap on')
  const payPair = (pair: Address) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pair, amountIn] })
  let nonce = await node.clients.publicClient.getTransactionCount({ address: treasury, blockTag: 'pending' })
  let turn = 0

  return {
    /** Transactions that `count` swaps take. */
    txsFor: (count: number) => Math.ceil(count / 2) * 2 + Math.floor(count / 2),
    calls: (count: number, fees: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex }): RpcCall[] => {
      const send = (to: Address, data: Hex) => ({
        method: 'eth_sendTransaction',
        params: [{ from: treasury, to, data, gas: hex(SWAP_GAS), nonce: hex(nonce++), ...fees }],
      })
      const calls: RpcCall[] = []
      for (let index = 0; index < count; index++, turn++) {
        if (index % 2 === 0) {
          const { pair, data } = pairs[turn % pairs.length]!
          calls.push(send(BX, payPair(pair)), send(pair, data))
        } else {
          calls.push(send(SwapRouter, pools[turn % pools.length]!))
        }
      }
      return calls
    },
  }
}
