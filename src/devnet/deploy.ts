import {
  createPublicClient,
  createTestClient, createWalletClient,
  defineChain,
  getContractAddress,
  http,
  parseEther,
  parseUnits,
  stringToHex,
  type Abi,
  type Account,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import type { Manifest as DeploymentManifest } from '../chain/manifest.ts'
import { devAccounts } from './accounts.ts'
import { link, ours, uniswap } from './artifacts.ts'
import { FatalError } from '../errors.ts'

/** The order of deployment is the contract addresses: append new contracts, never reorder. */
export const DEPLOY_ORDER = [
  'BX',
  'WETH9',
  'DUSD',
  'Faucet',
  'UniswapV2Factory',
  'UniswapV3Factory',
  'NFTDescriptor',
  'NonfungibleTokenPositionDescriptor',
  'NonfungiblePositionManager',
  'SwapRouter',
  'DemoNFT',
  'ArcadeBank',
  'CoinFlip',
  'FeeRouter',
  'NameRegistry',
  'TokenLauncher',
  'EthUsdFeed',
  'Dice',
  'Crash',
  'Roulette',
  'Slots',
  'Plinko',
  'Mines',
  'Lottery',
] as const

export type ContractName = (typeof DEPLOY_ORDER)[number]

/** The arcade's games beside the coin flip, each staking through the ArcadeBank (its one constructor argument). */
export const ARCADE_GAMES = ['Dice', 'Crash', 'Roulette', 'Slots', 'Plinko', 'Mines', 'Lottery'] as const satisfies readonly ContractName[]

/** The dev chain's deployment manifest: every contract of the deploy order. */
export type Manifest = DeploymentManifest<ContractName>

export type DeployOptions = {
  /** Ether per drip, in ether, as a decimal string. */
  faucetDripEth: string
  /** BX per drip, in BX, as a decimal string. */
  faucetDripBx: string
}

export const BX_SUPPLY = parseEther('1000000000')
export const DUSD_DECIMALS = 6
export const DUSD_SUPPLY = parseUnits('1000000000', DUSD_DECIMALS)
/** The arcade house's bankroll on the dev chain: what backs the winnings of open bets. */
export const ARCADE_HOUSE_ETH = parseEther('100')
/** The burned share of every fee the fee router splits, in basis points; the treasury gets the rest. */
export const FEE_BURN_BPS = 2500n
/** The name service's yearly prices in BX: labels of 3 characters, of 4, of 5 or more. */
export const NAME_PRICES_BX = ['500', '100', '10'] as const
/** The ether every token launch pays to the fee router. */
export const LAUNCH_FEE = parseEther('0.05')

export function devChain(rpcUrl: string, chainId = 78270) {
  return defineChain({
    id: chainId,
    name: 'stack dev chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
}

export function devClients(rpcUrl: string, chainId = 78270) {
  const chain = devChain(rpcUrl, chainId)
  const transport = http(rpcUrl, { batch: false, retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 })
  const walletFor = (account: Account) => createWalletClient({ chain, transport, account, pollingInterval: 20 })
  // anvil's own methods (interval mining, snapshots), typed.
  const testClient = createTestClient({ chain, transport, mode: 'anvil' })
  return { chain, publicClient, walletFor, testClient }
}

export type DevClients = ReturnType<typeof devClients>

/** A transaction the dev chain rejected; carries what was being done. */
export class DevnetError extends FatalError {
  override name = 'DevnetError'
}

/** Waits for a transaction and insists that it succeeded. */
export async function confirm(publicClient: PublicClient, hash: Hash, what: string): Promise<TransactionReceipt> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 30_000 })
  if (receipt.status !== 'success') throw new DevnetError(`${what} reverted (transaction ${hash})`)
  return receipt
}

/** The addresses the deployer's fixed order produces on a fresh chain. */
export function predictedAddresses(deployer: Address = devAccounts.deployer.address): Record<ContractName, Address> {
  return Object.fromEntries(
    DEPLOY_ORDER.map((name, nonce) => [name, getContractAddress({ from: deployer, nonce: BigInt(nonce) })]),
  ) as Record<ContractName, Address>
}

/**
 * Deploys the local contract set on a fresh dev chain: the same deployer, the same order, so
 * the same addresses every time. Refuses a chain on which the deployer has already sent
 * anything, since the addresses would then differ from the ones the registry lists.
 */
export async function deployContracts(clients: DevClients, options: DeployOptions): Promise<Manifest> {
  const { publicClient, walletFor } = clients
  const { deployer, operator, treasury } = devAccounts
  const wallet = walletFor(deployer)
  const nonce = await publicClient.getTransactionCount({ address: deployer.address })
  if (nonce !== 0) {
    throw new DevnetError(`the dev chain is not fresh: the deployer ${deployer.address} has already sent ${nonce} transactions`)
  }
  const expected = predictedAddresses(deployer.address)
  const deployed = {} as Record<ContractName, Address>
  let firstBlock: bigint | undefined

  const deploy = async (name: ContractName, abi: Abi, bytecode: Hex, args: unknown[] = []) => {
    const hash = await wallet.deployContract({ abi, bytecode, args, account: deployer, chain: wallet.chain })
    const receipt = await confirm(publicClient, hash, `deploying ${name}`)
    if (receipt.contractAddress?.toLowerCase() !== expected[name].toLowerCase()) {
      throw new DevnetError(`${name} landed at ${receipt.contractAddress}, expected ${expected[name]}`)
    }
    firstBlock ??= receipt.blockNumber
    deployed[name] = expected[name]
    return expected[name]
  }

  const bx = await deploy('BX', ours.Token.abi, ours.Token.bytecode, ['BX', 'BX', 18, treasury.address, BX_SUPPLY])
  const weth = await deploy('WETH9', ours.WETH9.abi, ours.WETH9.bytecode)
  await deploy('DUSD', ours.Token.abi, ours.Token.bytecode, ['Demo USD', 'DUSD', DUSD_DECIMALS, treasury.address, DUSD_SUPPLY])
  await deploy('Faucet', ours.Faucet.abi, ours.Faucet.bytecode, [
    operator.address,
    bx,
    parseEther(options.faucetDripEth),
    parseEther(options.faucetDripBx),
  ])
  const v2Factory = await deploy('UniswapV2Factory', uniswap.UniswapV2Factory.abi, uniswap.UniswapV2Factory.bytecode, [treasury.address])
  const v3Factory = await deploy('UniswapV3Factory', uniswap.UniswapV3Factory.abi, uniswap.UniswapV3Factory.bytecode)
  const nftDescriptor = await deploy('NFTDescriptor', uniswap.NFTDescriptor.abi, uniswap.NFTDescriptor.bytecode)
  const { abi, bytecode, linkReferences } = uniswap.NonfungibleTokenPositionDescriptor
  const descriptor = await deploy('NonfungibleTokenPositionDescriptor', abi, link(bytecode, linkReferences, { NFTDescriptor: nftDescriptor }), [
    weth,
    stringToHex('ETH', { size: 32 }),
  ])
  await deploy('NonfungiblePositionManager', uniswap.NonfungiblePositionManager.abi, uniswap.NonfungiblePositionManager.bytecode, [
    v3Factory,
    weth,
    descriptor,
  ])
  await deploy('SwapRouter', uniswap.SwapRouter.abi, uniswap.SwapRouter.bytecode, [v3Factory, weth])
  await deploy('DemoNFT', ours.DemoNFT.abi, ours.DemoNFT.bytecode, ['Dev Chain Sketches', 'SKETCH', treasury.address])
  const arcadeBank = await deploy('ArcadeBank', ours.ArcadeBank.abi, ours.ArcadeBank.bytecode, [treasury.address])
  const coinFlip = await deploy('CoinFlip', ours.CoinFlip.abi, ours.CoinFlip.bytecode, [arcadeBank])
  // The bank's owner (the treasury, never the deployer, whose nonces are the addresses) enables
  // the game and gives the house a bankroll, so the coin flip can be played with or without seeding.
  const bankOwner = async (functionName: string, args: unknown[], what: string, value?: bigint) => {
    const hash = await walletFor(treasury).writeContract({ address: arcadeBank, abi: ours.ArcadeBank.abi, functionName, args, value, account: treasury, chain: publicClient.chain })
    await confirm(publicClient, hash, what)
  }
  await bankOwner('setGame', [coinFlip, true], 'enabling the coin flip in the arcade bank')
  await bankOwner('fundHouse', [], 'funding the arcade house', ARCADE_HOUSE_ETH)
  const feeRouter = await deploy('FeeRouter', ours.FeeRouter.abi, ours.FeeRouter.bytecode, [treasury.address, bx, FEE_BURN_BPS])
  await deploy('NameRegistry', ours.NameRegistry.abi, ours.NameRegistry.bytecode, [treasury.address, bx, feeRouter, ...NAME_PRICES_BX.map((price) => parseEther(price))])
  await deploy('TokenLauncher', ours.TokenLauncher.abi, ours.TokenLauncher.bytecode, [v2Factory, weth, feeRouter, LAUNCH_FEE])
  await deploy('EthUsdFeed', ours.EthUsdFeed.abi, ours.EthUsdFeed.bytecode, [treasury.address])
  const games: Address[] = []
  for (const game of ARCADE_GAMES) games.push(await deploy(game, ours[game].abi, ours[game].bytecode, [arcadeBank]))
  // The bank's owner enables the other games and sends a share of every stake to the fee layer.
  for (const [index, game] of games.entries()) await bankOwner('setGame', [game, true], `enabling ${ARCADE_GAMES[index]} in the arcade bank`)
  await bankOwner('setFeeRouter', [feeRouter], 'naming the fee router in the arcade bank')

  return {
    chainId: clients.chain.id,
    deploymentBlock: Number(firstBlock ?? 0n),
    deployer: deployer.address,
    operator: operator.address,
    contracts: deployed,
  }
}
