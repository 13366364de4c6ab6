import { erc20Abi, maxUint128, parseEther, parseEventLogs, parseUnits, type Account, type Address, type Abi } from 'viem'
import { devAccounts } from './accounts.ts'
import { ours, uniswap } from './artifacts.ts'
import { confirm, DUSD_DECIMALS, type DevClients, type Manifest } from './deploy.ts'
import { demoTokenUri } from './nft.ts'
import { seedLapsedNames, seedProtocol, type ProtocolSeedReport } from './seedProtocol.ts'
import { seedArcade, type ArcadeSeedReport } from './seedArcade.ts'

export type SeedOptions = {
  /** Ether sent to the faucet, in ether. */
  faucetFundEth: string
  /** BX sent to the faucet, in BX. */
  faucetFundBx: string
}

/** What the seeding made, for the start-up banner and for tests. */
export type SeedReport = {
  transactions: number
  v2Pairs: Address[]
  v3Pools: Address[]
  /** Position ids of the position manager, by what was done to them. */
  positions: { open: bigint[]; decreased: bigint; closed: bigint }
  nftIds: bigint[]
  /** Names, launches and the price feed's rounds. */
  protocol: ProtocolSeedReport
  arcade: ArcadeSeedReport
}

const MAX_DEADLINE = 2n ** 64n
const bx = (amount: string) => parseEther(amount)
const weth = (amount: string) => parseEther(amount)
const dusd = (amount: string) => parseUnits(amount, DUSD_DECIMALS)

/**
 * Funds the faucet and seeds demo activity so that every route has real rows: ERC-20 and
 * ERC-721 transfers between several accounts, three constant-product pairs (two with WETH,
 * one without) with liquidity, swaps both ways and a burn, and two concentrated pools at
 * different fee tiers with positions on several ranges, swaps that cross ticks, a partial
 * decrease, a collect and one fully closed position; and a play of every arcade game.
 * Deterministic: the same calls in the same order from the same accounts.
 */
export async function seedActivity(clients: DevClients, manifest: Manifest, options: SeedOptions): Promise<SeedReport> {
  const { publicClient, walletFor } = clients
  const { treasury, alice, bob, carol } = devAccounts
  const c = manifest.contracts
  let transactions = 0

  const write = async (account: Account, address: Address, abi: Abi, functionName: string, args: unknown[] = [], value?: bigint) => {
    // Gas is estimated against the last block. Mined in a later second, a pair or pool writes its
    // time-weighted price (new storage slots) and needs more, so an exact estimate can run out of
    // gas. Unused gas is refunded, so the headroom is generous.
    const estimate = await publicClient.estimateContractGas({ account, address, abi, functionName, args, value })
    const gas = estimate * 2n + 100_000n
    const hash = await walletFor(account).writeContract({ address, abi, functionName, args, value, gas, account, chain: publicClient.chain })
    transactions++
    return confirm(publicClient, hash, `${functionName} on ${address} from ${account.address}`)
  }
  const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
    publicClient.readContract({ address, abi, functionName, args }) as Promise<T>
  const transfer = (from: Account, token: Address, to: Address, amount: bigint) => write(from, token, erc20Abi, 'transfer', [to, amount])
  const approve = (from: Account, token: Address, spender: Address) => write(from, token, erc20Abi, 'approve', [spender, 2n ** 256n - 1n])

  // First, a name left to expire: the chain's clock jumps a year here, before everything else.
  await seedLapsedNames(clients, { write }, c)

  // The faucet: ether and BX to pay drips with.
  const faucetFund = walletFor(treasury)
  const fundHash = await faucetFund.sendTransaction({ to: c.Faucet, value: parseEther(options.faucetFundEth) })
  transactions++
  await confirm(publicClient, fundHash, 'funding the faucet with ether')
  await transfer(treasury, c.BX, c.Faucet, bx(options.faucetFundBx))

  // Tokens spread over several accounts, and wrapped ether.
  await transfer(treasury, c.BX, alice.address, bx('100000'))
  await transfer(treasury, c.DUSD, alice.address, dusd('300000'))
  await transfer(treasury, c.BX, bob.address, bx('50000'))
  await transfer(treasury, c.DUSD, bob.address, dusd('300000'))
  await transfer(alice, c.BX, carol.address, bx('1000'))
  await transfer(bob, c.DUSD, carol.address, dusd('2500'))
  await write(treasury, c.WETH9, ours.WETH9.abi, 'deposit', [], weth('2500'))
  await write(alice, c.WETH9, ours.WETH9.abi, 'deposit', [], weth('200'))
  await write(bob, c.WETH9, ours.WETH9.abi, 'deposit', [], weth('100'))
  await transfer(alice, c.WETH9, carol.address, weth('5'))

  // Constant-product pairs, driven through the pair contracts themselves (no router in v2-core).
  const v2 = uniswap.UniswapV2Pair.abi
  const createPair = async (tokenA: Address, tokenB: Address) => {
    await write(treasury, c.UniswapV2Factory, uniswap.UniswapV2Factory.abi, 'createPair', [tokenA, tokenB])
    return read<Address>(c.UniswapV2Factory, uniswap.UniswapV2Factory.abi, 'getPair', [tokenA, tokenB])
  }
  const addLiquidityV2 = async (from: Account, pair: Address, tokenA: Address, amountA: bigint, tokenB: Address, amountB: bigint) => {
    await transfer(from, tokenA, pair, amountA)
    await transfer(from, tokenB, pair, amountB)
    await write(from, pair, v2, 'mint', [from.address])
  }
  const swapV2 = async (from: Account, pair: Address, tokenIn: Address, amountIn: bigint) => {
    const token0 = await read<Address>(pair, v2, 'token0')
    const [reserve0, reserve1] = await read<[bigint, bigint, number]>(pair, v2, 'getReserves')
    const zeroForOne = token0.toLowerCase() === tokenIn.toLowerCase()
    const [reserveIn, reserveOut] = zeroForOne ? [reserve0, reserve1] : [reserve1, reserve0]
    const amountOut = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
    await transfer(from, tokenIn, pair, amountIn)
    await write(from, pair, v2, 'swap', zeroForOne ? [0n, amountOut, from.address, '0x'] : [amountOut, 0n, from.address, '0x'])
  }

  const bxWeth = await createPair(c.BX, c.WETH9)
  const dusdWeth = await createPair(c.DUSD, c.WETH9)
  const bxDusd = await createPair(c.BX, c.DUSD)
  await addLiquidityV2(treasury, bxWeth, c.BX, bx('1000000'), c.WETH9, weth('1000'))
  await addLiquidityV2(treasury, dusdWeth, c.DUSD, dusd('3000000'), c.WETH9, weth('1000'))
  await addLiquidityV2(treasury, bxDusd, c.BX, bx('1000000'), c.DUSD, dusd('3000000'))
  await addLiquidityV2(alice, bxWeth, c.BX, bx('10000'), c.WETH9, weth('10'))
  await swapV2(alice, bxWeth, c.BX, bx('1000'))
  await swapV2(bob, bxWeth, c.WETH9, weth('2'))
  await swapV2(alice, dusdWeth, c.DUSD, dusd('3000'))
  await swapV2(bob, dusdWeth, c.WETH9, weth('1'))
  await swapV2(bob, bxDusd, c.BX, bx('500'))
  await swapV2(alice, bxDusd, c.DUSD, dusd('1500'))
  // Alice takes half of her liquidity back out: a burn.
  const aliceLp = await read<bigint>(bxWeth, v2, 'balanceOf', [alice.address])
  await transfer(alice, bxWeth, bxWeth, aliceLp / 2n)
  await write(alice, bxWeth, v2, 'burn', [alice.address])

  // Concentrated pools through the position manager and the swap router.
  const npm = uniswap.NonfungiblePositionManager.abi
  for (const account of [treasury, alice, bob]) {
    for (const token of [c.BX, c.WETH9, c.DUSD]) {
      await approve(account, token, c.NonfungiblePositionManager)
      await approve(account, token, c.SwapRouter)
    }
  }
  const sorted = (a: Address, b: Address): [Address, Address] => (a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a])
  const createPool = async (tokenA: Address, amountA: bigint, tokenB: Address, amountB: bigint, fee: number) => {
    const [token0, token1] = sorted(tokenA, tokenB)
    const [amount0, amount1] = token0 === tokenA ? [amountA, amountB] : [amountB, amountA]
    await write(treasury, c.NonfungiblePositionManager, npm, 'createAndInitializePoolIfNecessary', [token0, token1, fee, sqrtPriceX96(amount0, amount1)])
    const pool = await read<Address>(c.UniswapV3Factory, uniswap.UniswapV3Factory.abi, 'getPool', [token0, token1, fee])
    const spacing = await read<number>(pool, uniswap.UniswapV3Pool.abi, 'tickSpacing')
    const [, tick] = await read<[bigint, number]>(pool, uniswap.UniswapV3Pool.abi, 'slot0')
    return { pool, token0, token1, fee, spacing, base: Math.floor(tick / spacing) * spacing }
  }
  type Pool = Awaited<ReturnType<typeof createPool>>
  const mint = async (from: Account, pool: Pool, lowerSteps: number, upperSteps: number, amount0: bigint, amount1: bigint) => {
    const receipt = await write(from, c.NonfungiblePositionManager, npm, 'mint', [
      {
        token0: pool.token0,
        token1: pool.token1,
        fee: pool.fee,
        tickLower: pool.base + lowerSteps * pool.spacing,
        tickUpper: pool.base + upperSteps * pool.spacing,
        amount0Desired: amount0,
        amount1Desired: amount1,
        amount0Min: 0n,
        amount1Min: 0n,
        recipient: from.address,
        deadline: MAX_DEADLINE,
      },
    ])
    const [event] = parseEventLogs({ abi: npm, logs: receipt.logs, eventName: 'IncreaseLiquidity' }) as unknown as Array<{ args: { tokenId: bigint } }>
    return event!.args.tokenId
  }
  const swapV3 = (from: Account, pool: Pool, tokenIn: Address, amountIn: bigint) =>
    write(from, c.SwapRouter, uniswap.SwapRouter.abi, 'exactInputSingle', [
      {
        tokenIn,
        tokenOut: tokenIn === pool.token0 ? pool.token1 : pool.token0,
        fee: pool.fee,
        recipient: from.address,
        deadline: MAX_DEADLINE,
        amountIn,
        amountOutMinimum: 0n,
        sqrtPriceLimitX96: 0n,
      },
    ])
  const liquidityOf = async (tokenId: bigint) => (await read<readonly unknown[]>(c.NonfungiblePositionManager, npm, 'positions', [tokenId]))[7] as bigint
  const decrease = (from: Account, tokenId: bigint, liquidity: bigint) =>
    write(from, c.NonfungiblePositionManager, npm, 'decreaseLiquidity', [{ tokenId, liquidity, amount0Min: 0n, amount1Min: 0n, deadline: MAX_DEADLINE }])
  const collect = (from: Account, tokenId: bigint) =>
    write(from, c.NonfungiblePositionManager, npm, 'collect', [{ tokenId, recipient: from.address, amount0Max: maxUint128, amount1Max: maxUint128 }])

  // BX/WETH at 0.3 %: 1 WETH = 1000 BX.
  const bxWethPool = await createPool(c.BX, bx('1000'), c.WETH9, weth('1'), 3000)
  const wide = await mint(treasury, bxWethPool, -10, 10, bx('100000'), weth('100'))
  const narrow = await mint(treasury, bxWethPool, -1, 1, bx('20000'), weth('20'))
  const broad = await mint(alice, bxWethPool, -100, 100, bx('20000'), weth('20'))
  const [above0, above1] = bxWethPool.token0 === c.BX ? [bx('5000'), 0n] : [0n, bx('5000')]
  const above = await mint(alice, bxWethPool, 2, 20, above0, above1)
  // Large enough to leave the narrow range, in one direction and then the other.
  await swapV3(bob, bxWethPool, c.WETH9, weth('15'))
  await swapV3(bob, bxWethPool, c.BX, bx('30000'))
  await swapV3(alice, bxWethPool, c.WETH9, weth('3'))

  // DUSD/WETH at 0.05 %: 1 WETH = 3000 DUSD.
  const dusdWethPool = await createPool(c.DUSD, dusd('3000'), c.WETH9, weth('1'), 500)
  const dusdWide = await mint(treasury, dusdWethPool, -40, 40, dusd('300000'), weth('100'))
  const dusdNarrow = await mint(bob, dusdWethPool, -4, 4, dusd('30000'), weth('10'))
  await swapV3(alice, dusdWethPool, c.WETH9, weth('25'))
  await swapV3(bob, dusdWethPool, c.DUSD, dusd('150000'))

  // Half of the wide position out and collected; the narrow one closed for good.
  await decrease(treasury, wide, (await liquidityOf(wide)) / 2n)
  await collect(treasury, wide)
  await decrease(treasury, narrow, await liquidityOf(narrow))
  await collect(treasury, narrow)

  // NFTs: minted to the treasury, then passed along.
  const nftIds: bigint[] = []
  for (let index = 1; index <= 5; index++) {
    const receipt = await write(treasury, c.DemoNFT, ours.DemoNFT.abi, 'mint', [treasury.address, demoTokenUri(index)])
    const [event] = parseEventLogs({ abi: ours.DemoNFT.abi, logs: receipt.logs, eventName: 'Transfer' }) as unknown as Array<{ args: { tokenId: bigint } }>
    nftIds.push(event!.args.tokenId)
  }
  const nftTransfer = (from: Account, to: Address, tokenId: bigint) =>
    write(from, c.DemoNFT, ours.DemoNFT.abi, 'transferFrom', [from.address, to, tokenId])
  await nftTransfer(treasury, alice.address, nftIds[0]!)
  await nftTransfer(alice, bob.address, nftIds[0]!)
  await nftTransfer(treasury, carol.address, nftIds[1]!)
  await nftTransfer(treasury, alice.address, nftIds[2]!)

  // The price feed, names, token launches with trades, and the fee router's split and claim.
  const protocol = await seedProtocol({ write, read, swapV2 }, c)

  // The arcade last: the arcade reads the 64 blocks before its first head (arcade.catchUpBlocks),
  // so every room starts with the seeded plays of its game. Add other seeding above this line.
  const arcade = await seedArcade(write, manifest)

  return {
    transactions,
    v2Pairs: [bxWeth, dusdWeth, bxDusd],
    v3Pools: [bxWethPool.pool, dusdWethPool.pool],
    positions: { open: [wide, broad, above, dusdWide, dusdNarrow], decreased: wide, closed: narrow },
    nftIds,
    protocol,
    arcade,
  }
}

/** sqrt(amount1 / amount0) in Q64.96, for a pool whose price is amount1 of token1 per amount0 of token0. */
export function sqrtPriceX96(amount0: bigint, amount1: bigint): bigint {
  return isqrt((amount1 << 192n) / amount0)
}

function isqrt(value: bigint): bigint {
  if (value < 2n) return value
  let x = value
  let y = (x + 1n) / 2n
  while (y < x) {
    x = y
    y = (x + value / x) / 2n
  }
  return x
}
