import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { erc20Abi, getAddress, parseEther, parseUnits, type Address } from 'viem'
import { devAccounts } from '../src/devnet/accounts.ts'
import { ours, uniswap } from '../src/devnet/artifacts.ts'
import { FEE_BURN_BPS, LAUNCH_FEE, NAME_PRICES_BX } from '../src/devnet/deploy.ts'
import { decodeEvents, startDevChain, type DevChain } from './helpers/devChain.ts'

// The fee router, the name registry, the token launcher and the price feed on a seeded dev
// chain: the rules each contract keeps, beyond what the explorer and the index show of them.

let dev: DevChain
let c: DevChain['manifest']['contracts']
const { treasury, alice, bob, carol } = devAccounts
const BURN = getAddress('0x000000000000000000000000000000000000dEaD')
const [LAUNCH, NAME] = [0, 1]

beforeAll(async () => {
  dev = await startDevChain()
  c = dev.manifest.contracts
})
afterAll(() => dev?.stop())

const router = <T>(functionName: string, args: unknown[] = []) => dev.read<T>(c.FeeRouter, ours.FeeRouter.abi, functionName, args)
const registry = <T>(functionName: string, args: unknown[] = []) => dev.read<T>(c.NameRegistry, ours.NameRegistry.abi, functionName, args)
const bxOf = (account: Address) => dev.read<bigint>(c.BX, erc20Abi, 'balanceOf', [account])
const ethOf = (account: Address) => dev.clients.publicClient.getBalance({ address: account })
const bxOfToken = (token: Address, account: Address) => dev.read<bigint>(token, erc20Abi, 'balanceOf', [account])

describe('the fee router', () => {
  test('says its settings at deployment', async () => {
    const logs = await dev.clients.publicClient.getLogs({ address: c.FeeRouter, fromBlock: 0n })
    const [configured] = decodeEvents<{ treasury: Address; token: Address; burnBps: bigint; burnAddress: Address }>(ours.FeeRouter.abi, logs, 'Configured')
    expect(configured!.args).toEqual({ treasury: treasury.address, token: c.BX, burnBps: FEE_BURN_BPS, burnAddress: BURN })
  })

  test('defers what it receives, then splits it: the burned share leaves at once, the rest waits for the treasury', async () => {
    await dev.write(carol, c.FeeRouter, ours.FeeRouter.abi, 'distribute').catch(() => {})
    const [deferredBefore, receivedBefore] = [await router<bigint>('deferredEth'), await router<bigint>('receivedEth', [LAUNCH])]
    await dev.write(alice, c.FeeRouter, ours.FeeRouter.abi, 'payEther', [LAUNCH], { value: parseEther('4') })
    await dev.write(alice, c.BX, erc20Abi, 'approve', [c.FeeRouter, parseEther('100')])
    await dev.write(alice, c.FeeRouter, ours.FeeRouter.abi, 'payToken', [NAME, parseEther('100')])
    expect(await router<bigint>('deferredEth')).toBe(deferredBefore + parseEther('4'))
    expect(await router<bigint>('receivedEth', [LAUNCH])).toBe(receivedBefore + parseEther('4'))

    const [deferredEth, deferredToken, claimableEth, claimableToken] = await Promise.all(['deferredEth', 'deferredToken', 'claimableEth', 'claimableToken'].map((name) => router<bigint>(name)))
    const [burnEth, burnBx] = [await ethOf(BURN), await bxOf(BURN)]
    const receipt = await dev.write(bob, c.FeeRouter, ours.FeeRouter.abi, 'distribute')
    const burnedEth = (deferredEth! * FEE_BURN_BPS) / 10_000n
    const burnedBx = (deferredToken! * FEE_BURN_BPS) / 10_000n
    expect([await ethOf(BURN), await bxOf(BURN)]).toEqual([burnEth + burnedEth, burnBx + burnedBx])
    expect(await router<bigint>('claimableEth')).toBe(claimableEth! + deferredEth! - burnedEth)
    expect(await router<bigint>('claimableToken')).toBe(claimableToken! + deferredToken! - burnedBx)
    expect([await router<bigint>('deferredEth'), await router<bigint>('deferredToken')]).toEqual([0n, 0n])
    expect(decodeEvents(ours.FeeRouter.abi, receipt.logs, 'Distributed')[0]!.args).toEqual({
      caller: bob.address, ethBurned: burnedEth, ethToTreasury: deferredEth! - burnedEth, tokenBurned: burnedBx, tokenToTreasury: deferredToken! - burnedBx,
    })
    // Nothing left to split; only the treasury claims, and takes all it is owed.
    await expect(dev.write(bob, c.FeeRouter, ours.FeeRouter.abi, 'distribute')).rejects.toThrow('NothingToDistribute')
    await expect(dev.write(bob, c.FeeRouter, ours.FeeRouter.abi, 'claim')).rejects.toThrow('NotTreasury')
    const owed = await router<bigint>('claimableToken')
    const bx = await bxOf(treasury.address)
    await dev.write(treasury, c.FeeRouter, ours.FeeRouter.abi, 'claim')
    expect(await bxOf(treasury.address)).toBe(bx + owed)
    expect([await ethOf(c.FeeRouter), await bxOf(c.FeeRouter)]).toEqual([0n, 0n])
  })
})

describe('the token launcher', () => {
  test('one transaction: the token, its pair with the ether sent as liquidity, the pool shares to the creator, the fee to the router', async () => {
    const received = await router<bigint>('receivedEth', [LAUNCH])
    const receipt = await dev.write(carol, c.TokenLauncher, ours.TokenLauncher.abi, 'launch', ['Test Coin', 'TST', parseEther('1000'), parseEther('400')], { value: parseEther('2') + LAUNCH_FEE })
    const [launched] = decodeEvents<{ token: Address; pair: Address; creator: Address; liquidityEth: bigint; fee: bigint }>(ours.TokenLauncher.abi, receipt.logs, 'TokenLaunched')
    const { token, pair } = launched!.args
    expect(launched!.args).toMatchObject({ creator: carol.address, liquidityEth: parseEther('2'), fee: LAUNCH_FEE })
    expect(await dev.read(c.UniswapV2Factory, uniswap.UniswapV2Factory.abi, 'getPair', [token, c.WETH9])).toBe(pair)
    const [reserve0, reserve1] = await dev.read<[bigint, bigint]>(pair, uniswap.UniswapV2Pair.abi, 'getReserves')
    const tokenFirst = token.toLowerCase() < c.WETH9.toLowerCase()
    expect(tokenFirst ? [reserve0, reserve1] : [reserve1, reserve0]).toEqual([parseEther('400'), parseEther('2')])
    expect(await bxOfToken(token, carol.address)).toBe(parseEther('600'))
    expect(await dev.read<bigint>(pair, erc20Abi, 'balanceOf', [carol.address])).toBeGreaterThan(0n)
    expect(await router<bigint>('receivedEth', [LAUNCH])).toBe(received + LAUNCH_FEE)
    expect([await dev.read(token, erc20Abi, 'symbol'), await dev.read(token, erc20Abi, 'decimals')]).toEqual(['TST', 18])
  })

  test('refuses too little ether, liquidity beyond the supply, an empty name', async () => {
    const launch = (args: unknown[], value: bigint) => dev.write(carol, c.TokenLauncher, ours.TokenLauncher.abi, 'launch', args, { value })
    await expect(launch(['Coin', 'C', parseEther('10'), parseEther('1')], LAUNCH_FEE)).rejects.toThrow('NotEnoughEther')
    await expect(launch(['Coin', 'C', parseEther('10'), parseEther('11')], parseEther('1'))).rejects.toThrow('BadSupply')
    await expect(launch(['', 'C', parseEther('10'), parseEther('1')], parseEther('1'))).rejects.toThrow('BadName')
  })
})


describe('the price feed', () => {
  test("Chainlink's shape: decimals, description, version, the latest round and each round by id", async () => {
    const feed = (functionName: string, args: unknown[] = []) => dev.read<unknown>(c.EthUsdFeed, ours.EthUsdFeed.abi, functionName, args)
    expect([await feed('decimals'), await feed('description'), await feed('version')]).toEqual([8, 'ETH / USD', 1n])
    const [roundId, answer, startedAt, updatedAt, answeredInRound] = (await feed('latestRoundData')) as bigint[]
    expect([roundId, answer, answeredInRound]).toEqual([2n, parseUnits('3000', 8), 2n])
    expect(updatedAt).toBe(startedAt!)
    expect(((await feed('getRoundData', [1n])) as bigint[])[1]).toBe(parseUnits('2950', 8))
    await expect(feed('getRoundData', [99n])).rejects.toThrow('NoDataPresent')
  })

  test('only its owner updates it, with a positive answer', async () => {
    await expect(dev.write(alice, c.EthUsdFeed, ours.EthUsdFeed.abi, 'update', [1n])).rejects.toThrow('NotOwner')
    await expect(dev.write(treasury, c.EthUsdFeed, ours.EthUsdFeed.abi, 'update', [0n])).rejects.toThrow('NotPositive')
  })
})

describe('the name registry', () => {
  test('labels of 3 to 32 of a-z, 0-9 and "-" (not first or last), reserved labels and live names refused', async () => {
    for (const label of ['ab', 'Alice', 'a_b', '-abc', 'abc-', 'a'.repeat(33)]) {
      expect(await registry('validLabel', [label])).toBe(false)
      await expect(dev.write(carol, c.NameRegistry, ours.NameRegistry.abi, 'register', [label, 1n])).rejects.toThrow('InvalidLabel')
    }
    await expect(dev.write(carol, c.NameRegistry, ours.NameRegistry.abi, 'register', ['stack', 1n])).rejects.toThrow('Unavailable')
    await expect(dev.write(carol, c.NameRegistry, ours.NameRegistry.abi, 'register', ['alice', 1n])).rejects.toThrow('Unavailable')
    await expect(dev.write(carol, c.NameRegistry, ours.NameRegistry.abi, 'setReserved', ['carol', true])).rejects.toThrow('NotOwner')
    await expect(dev.write(carol, c.NameRegistry, ours.NameRegistry.abi, 'setText', ['alice', 'twitter', '@carol'])).rejects.toThrow('NotNameOwner')
  })

  test('the yearly price by length times the years, paid in BX into the fee router', async () => {
    const years = 3n
    const price = parseEther(NAME_PRICES_BX[1])
    expect(await registry('yearlyPrice', ['four'])).toBe(price)
    const [bx, received] = [await bxOf(carol.address), await router<bigint>('receivedToken', [NAME])]
    await dev.write(carol, c.NameRegistry, ours.NameRegistry.abi, 'register', ['four', years])
    expect(await bxOf(carol.address)).toBe(bx - price * years)
    expect(await router<bigint>('receivedToken', [NAME])).toBe(received + price * years)
    expect(await registry('resolve', ['four'])).toBe(carol.address)
  })

  // Last: it moves the chain's clock on.
  test('an expired name resolves to nothing, loses its reverse record, and anyone may take it, without its records', async () => {
    await dev.write(bob, c.NameRegistry, ours.NameRegistry.abi, 'register', ['short-lived', 1n])
    await dev.write(bob, c.NameRegistry, ours.NameRegistry.abi, 'setText', ['short-lived', 'website', 'https://bob.example'])
    await dev.write(bob, c.NameRegistry, ours.NameRegistry.abi, 'setReverse', ['short-lived'])
    expect(await registry('nameOf', [bob.address])).toBe('short-lived')
    await dev.advanceTime(366 * 24 * 3600)
    expect(await registry('resolve', ['short-lived'])).toBe('0x0000000000000000000000000000000000000000')
    expect(await registry('nameOf', [bob.address])).toBe('')
    expect(await registry('available', ['short-lived'])).toBe(true)
    await dev.write(carol, c.NameRegistry, ours.NameRegistry.abi, 'register', ['short-lived', 1n])
    const record = await registry<{ owner: Address; website: string }>('lookup', ['short-lived'])
    expect([record.owner, record.website]).toEqual([carol.address, ''])
  })
})
