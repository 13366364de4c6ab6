import { encodeFunctionData, erc20Abi, maxUint128, parseEther, type Abi, type Account, type Address } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours, uniswap } from '../../src/devnet/artifacts.ts'
import type { Manifest } from '../../src/devnet/deploy.ts'
import { decodeEvents, devNode, type DevNode } from '../helpers/devChain.ts'

const MAX_DEADLINE = 2n ** 64n

export type PoolKey = { token0: Address; token1: Address; fee: number }

/**
 * Exchange activity on a seeded dev chain, through the real contracts: constant-product swaps
 * and pairs, concentrated swaps, mints, decreases and collects through the position manager and
 * the router (the seed approved both for the treasury, alice and bob).
 */
export function exchangeActivity(chain: Pick<DevNode, 'write' | 'read' | 'deploy'> & { manifest: Manifest }) {
  const c = chain.manifest.contracts
  const { treasury } = devAccounts
  const { read } = chain
  // A fixed gas limit: a swap's cost depends on the block it lands in (the pool's oracle
  // writes), so an estimate made against the pending block can fall short by the time it runs.
  const write = (from: Account, address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
    chain.write(from, address, abi, functionName, args, { gas: 10_000_000n })
  const v2 = uniswap.UniswapV2Pair.abi
  const npm = uniswap.NonfungiblePositionManager.abi

  return {
    /** Pays `amountIn` of `tokenIn` into a pair and takes the exact output back. */
    async v2Swap(pair: Address, tokenIn: Address, amountIn: bigint, from: Account = treasury) {
      const token0 = await read<Address>(pair, v2, 'token0')
      const [reserve0, reserve1] = await read<[bigint, bigint]>(pair, v2, 'getReserves')
      const zeroForOne = token0.toLowerCase() === tokenIn.toLowerCase()
      const [reserveIn, reserveOut] = zeroForOne ? [reserve0, reserve1] : [reserve1, reserve0]
      const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
      await write(from, tokenIn, erc20Abi, 'transfer', [pair, amountIn])
      await write(from, pair, v2, 'swap', zeroForOne ? [0n, amountOut, from.address, '0x'] : [amountOut, 0n, from.address, '0x'])
    },
    /** A fresh ERC-20 (our Token contract) held by the treasury: a partner no pair has yet. */
    async deployToken(symbol: string, decimals: number): Promise<Address> {
      return chain.deploy(treasury, ours.Token, [symbol, symbol, decimals, treasury.address, 10n ** BigInt(decimals + 9)])
    },
    /** The factory's owner (the deployer) enables a new fee tier. */
    async enableFeeTier(fee: number, tickSpacing: number) {
      await write(devAccounts.deployer, c.UniswapV3Factory, uniswap.UniswapV3Factory.abi, 'enableFeeAmount', [fee, tickSpacing])
    },
    async createPair(tokenA: Address, tokenB: Address, amountA: bigint, amountB: bigint): Promise<Address> {
      await write(treasury, c.UniswapV2Factory, uniswap.UniswapV2Factory.abi, 'createPair', [tokenA, tokenB])
      const pair = await read<Address>(c.UniswapV2Factory, uniswap.UniswapV2Factory.abi, 'getPair', [tokenA, tokenB])
      await write(treasury, tokenA, erc20Abi, 'transfer', [pair, amountA])
      await write(treasury, tokenB, erc20Abi, 'transfer', [pair, amountB])
      await write(treasury, pair, v2, 'mint', [treasury.address])
      return pair
    },
    async poolKey(pool: Address): Promise<PoolKey & { spacing: number; tick: number }> {
      const [token0, token1, fee, spacing, slot0] = await Promise.all([
        read<Address>(pool, uniswap.UniswapV3Pool.abi, 'token0'),
        read<Address>(pool, uniswap.UniswapV3Pool.abi, 'token1'),
        read<number>(pool, uniswap.UniswapV3Pool.abi, 'fee'),
        read<number>(pool, uniswap.UniswapV3Pool.abi, 'tickSpacing'),
        read<[bigint, number]>(pool, uniswap.UniswapV3Pool.abi, 'slot0'),
      ])
      return { token0, token1, fee, spacing, tick: slot0[1] }
    },
    async createPool(key: PoolKey, sqrtPriceX96: bigint): Promise<Address> {
      await write(treasury, c.NonfungiblePositionManager, npm, 'createAndInitializePoolIfNecessary', [key.token0, key.token1, key.fee, sqrtPriceX96])
      return read<Address>(c.UniswapV3Factory, uniswap.UniswapV3Factory.abi, 'getPool', [key.token0, key.token1, key.fee])
    },
    async v3Swap(key: PoolKey, tokenIn: Address, amountIn: bigint, from: Account = treasury) {
      await write(from, c.SwapRouter, uniswap.SwapRouter.abi, 'exactInputSingle', [
        {
          tokenIn,
          tokenOut: tokenIn === key.token0 ? key.token1 : key.token0,
          fee: key.fee,
          recipient: from.address,
          deadline: MAX_DEADLINE,
          amountIn,
          amountOutMinimum: 0n,
          sqrtPriceLimitX96: 0n,
        },
      ])
    },
    async v3Mint(key: PoolKey, tickLower: number, tickUpper: number, amount0: bigint, amount1: bigint, from: Account = treasury): Promise<bigint> {
      const receipt = await write(from, c.NonfungiblePositionManager, npm, 'mint', [
        { ...key, tickLower, tickUpper, amount0Desired: amount0, amount1Desired: amount1, amount0Min: 0n, amount1Min: 0n, recipient: from.address, deadline: MAX_DEADLINE },
      ])
      const [event] = decodeEvents<{ tokenId: bigint }>(npm, receipt.logs, 'IncreaseLiquidity')
      return event!.args.tokenId
    },
    /** Takes `share` (0..1 as numerator/denominator) of a position's liquidity out, then collects everything owed. */
    async v3Decrease(tokenId: bigint, numerator: bigint, denominator: bigint, from: Account = treasury) {
      await this.v3Burn(tokenId, numerator, denominator, from)
      await this.v3Collect(tokenId, from)
    },
    /** Takes `share` of a position's liquidity out into what the pool owes it, collecting nothing. */
    async v3Burn(tokenId: bigint, numerator: bigint, denominator: bigint, from: Account = treasury) {
      const liquidity = (await read<readonly unknown[]>(c.NonfungiblePositionManager, npm, 'positions', [tokenId]))[7] as bigint
      await write(from, c.NonfungiblePositionManager, npm, 'decreaseLiquidity', [
        { tokenId, liquidity: (liquidity * numerator) / denominator, amount0Min: 0n, amount1Min: 0n, deadline: MAX_DEADLINE },
      ])
    },
    /** Collects everything the pool owes a position: what its burns credited and the fees it earned. */
    async v3Collect(tokenId: bigint, from: Account = treasury) {
      await write(from, c.NonfungiblePositionManager, npm, 'collect', [{ tokenId, recipient: from.address, amount0Max: maxUint128, amount1Max: maxUint128 }])
    },
  }
}

export type ExchangeActivity = ReturnType<typeof exchangeActivity>

/**
 * `count` tiny constant-product swaps of 1 whole `tokenIn` for 10^9 base units of the other
 * side (far below the real output, so every one succeeds whatever the order), sent from the
 * treasury one after the other without waiting for viem's receipt polling: anvil mines each as
 * it comes. A JSON-RPC batch of sends is not used: anvil then packs them into blocks unevenly.
 */
export async function manySmallSwaps(rpcUrl: string, pair: Address, tokenIn: Address, tokenInIsToken0: boolean, count: number) {
  const from = devAccounts.treasury.address
  const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [pair, parseEther('1')] })
  const swap = encodeFunctionData({
    abi: uniswap.UniswapV2Pair.abi,
    functionName: 'swap',
    args: tokenInIsToken0 ? [0n, 1_000_000_000n, from, '0x'] : [1_000_000_000n, 0n, from, '0x'],
  })
  const gas = 200_000n
  await devNode(rpcUrl).send(Array.from({ length: count }, () => [{ from, to: tokenIn, data: transfer, gas }, { from, to: pair, data: swap, gas }]).flat())
}
