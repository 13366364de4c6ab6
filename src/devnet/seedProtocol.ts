import { erc20Abi, parseEther, parseEventLogs, parseUnits, type Account, type Abi, type Address, type TransactionReceipt } from 'viem'
import { devAccounts } from './accounts.ts'
import { ours } from './artifacts.ts'
import type { DevClients, Manifest } from './deploy.ts'

/** What the protocol seeding needs of the seed: its way to send a call, to read, and to trade on a pair. */
export type ProtocolSeedTools = {
  write: (account: Account, address: Address, abi: Abi, functionName: string, args?: unknown[], value?: bigint) => Promise<TransactionReceipt>
  read: <T>(address: Address, abi: Abi, functionName: string, args?: unknown[]) => Promise<T>
  swapV2: (from: Account, pair: Address, tokenIn: Address, amountIn: bigint) => Promise<void>
}

/** What the protocol seeding made, for the banner and for tests. */
export type ProtocolSeedReport = {
  names: { registered: string[]; reserved: string[]; expired: string[] }
  launches: Array<{ token: Address; pair: Address; symbol: string; creator: Address }>
  /** The feed's rounds, in dollars with the feed's 8 decimals. */
  ethUsdRounds: bigint[]
}

/** The feed's decimals (its `decimals()`), and its seeded rounds: 2950, then 3000 dollars. */
export const FEED_DECIMALS = 8
const ETH_USD_ROUNDS = ['2950', '3000'].map((dollars) => parseUnits(dollars, FEED_DECIMALS))

/** Labels the registry's owner reserves on the dev chain. */
const RESERVED = ['stack', 'admin']
/** A name registered for one year and let lapse: the seed moves the chain's clock past it. */
const EXPIRED = 'genesis'
const YEAR_SECONDS = 365 * 24 * 3600

const { treasury, alice, bob, carol } = devAccounts

/**
 * Before the rest of the seed: the reserved labels, and a name that expires because the chain's
 * clock is moved on by a year and a day (anvil's time travel). Done first, so the jump is far
 * behind the blocks whose intervals the explorer averages, and every later name, feed round and
 * bet is written at the new time.
 */
export async function seedLapsedNames(clients: DevClients, tools: Pick<ProtocolSeedTools, 'write'>, c: Manifest['contracts']): Promise<void> {
  const { write } = tools
  const names = ours.NameRegistry.abi
  for (const label of RESERVED) await write(treasury, c.NameRegistry, names, 'setReserved', [label, true])
  await write(treasury, c.BX, erc20Abi, 'approve', [c.NameRegistry, 2n ** 256n - 1n])
  await write(treasury, c.NameRegistry, names, 'register', [EXPIRED, 1n])
  await write(treasury, c.NameRegistry, names, 'setText', [EXPIRED, 'description', 'The first name on the dev chain, left to expire.'])
  await clients.testClient.increaseTime({ seconds: YEAR_SECONDS + 24 * 3600 })
  await clients.testClient.mine({ blocks: 1 })
}

/**
 * The price feed's rounds, names for several accounts with their text records, token launches
 * with trades on their pairs, and the fee router's split and the treasury's claim, followed by
 * one more launch and name so that fees are also waiting to be split. Needs the accounts' BX and
 * wrapped ether from the earlier seeding.
 */
export async function seedProtocol(tools: ProtocolSeedTools, c: Manifest['contracts']): Promise<ProtocolSeedReport> {
  const { write, read, swapV2 } = tools
  const names = ours.NameRegistry.abi
  const launcher = ours.TokenLauncher.abi
  const router = ours.FeeRouter.abi

  for (const answer of ETH_USD_ROUNDS) await write(treasury, c.EthUsdFeed, ours.EthUsdFeed.abi, 'update', [answer])

  const registered: string[] = []
  const register = async (account: Account, label: string, years: bigint, texts: Record<string, string> = {}) => {
    await write(account, c.NameRegistry, names, 'register', [label, years])
    for (const [key, value] of Object.entries(texts)) await write(account, c.NameRegistry, names, 'setText', [label, key, value])
    registered.push(label)
  }
  for (const account of [alice, bob, carol]) await write(account, c.BX, erc20Abi, 'approve', [c.NameRegistry, 2n ** 256n - 1n])
  await register(alice, 'alice', 2n, { twitter: '@alice', website: 'https://alice.example', description: 'Builds on the dev chain.' })
  await register(bob, 'bob', 1n, { twitter: '@bob' })
  await register(carol, 'carol', 1n, { website: 'https://carol.example' })
  await register(treasury, 'treasury', 3n, { description: 'The treasury of the dev chain.' })
  // A second name of Alice's, pointed at Bob: her reverse record stays "alice".
  await register(alice, 'dev-chain', 1n)
  await write(alice, c.NameRegistry, names, 'setResolved', ['dev-chain', bob.address])

  const launches: ProtocolSeedReport['launches'] = []
  const fee = await read<bigint>(c.TokenLauncher, launcher, 'launchFee')
  const launch = async (account: Account, name: string, symbol: string, supply: string, liquidity: string, ether: string) => {
    const receipt = await write(account, c.TokenLauncher, launcher, 'launch', [name, symbol, parseEther(supply), parseEther(liquidity)], parseEther(ether) + fee)
    const [event] = parseEventLogs({ abi: launcher, logs: receipt.logs, eventName: 'TokenLaunched' }) as unknown as Array<{ args: { token: Address; pair: Address } }>
    const { token, pair } = event!.args
    launches.push({ token, pair, symbol, creator: account.address })
    return { token, pair }
  }
  const moon = await launch(alice, 'Moon Cat', 'MOON', '1000000', '500000', '5')
  const pixel = await launch(bob, 'Pixel Coin', 'PXL', '21000000', '10000000', '2')
  // Trades both ways on the launched pairs, with wrapped ether and the launched tokens.
  await swapV2(bob, moon.pair, c.WETH9, parseEther('0.5'))
  await swapV2(carol, moon.pair, c.WETH9, parseEther('0.2'))
  await swapV2(alice, moon.pair, moon.token, parseEther('20000'))
  await swapV2(alice, pixel.pair, c.WETH9, parseEther('0.3'))
  await swapV2(bob, pixel.pair, pixel.token, parseEther('100000'))

  // Anyone may split what the router holds; the treasury claims its share.
  await write(carol, c.FeeRouter, router, 'distribute')
  await write(treasury, c.FeeRouter, router, 'claim')
  // Received after the split: deferred until the next one.
  await launch(carol, 'Dev Chain Meme', 'DCM', '1000000000', '1000000000', '1')
  await register(bob, 'bobby', 1n, { description: 'Bob again.' })

  return { names: { registered, reserved: RESERVED, expired: [EXPIRED] }, launches, ethUsdRounds: ETH_USD_ROUNDS }
}
