import { getAddress, parseAbiItem, type Abi, type Address, type Hex } from 'viem'
import UniswapV2FactoryBuild from '@uniswap/v2-core/build/UniswapV2Factory.json' with { type: 'json' }
import UniswapV2PairBuild from '@uniswap/v2-core/build/UniswapV2Pair.json' with { type: 'json' }
import UniswapV3FactoryBuild from '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json' with { type: 'json' }
import UniswapV3PoolBuild from '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json' with { type: 'json' }
import NFTDescriptorBuild from '@uniswap/v3-periphery/artifacts/contracts/libraries/NFTDescriptor.sol/NFTDescriptor.json' with { type: 'json' }
import NonfungiblePositionManagerBuild from '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json' with { type: 'json' }
import NonfungibleTokenPositionDescriptorBuild from '@uniswap/v3-periphery/artifacts/contracts/NonfungibleTokenPositionDescriptor.sol/NonfungibleTokenPositionDescriptor.json' with { type: 'json' }
import SwapRouterBuild from '@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json' with { type: 'json' }

import { bare, maskedRuntimeHash, slice, zero, type ImmutableReferences, type LinkReferences } from '../verify/bytecode.ts'
import { immutablePlaceholders } from '../verify/immutables.ts'
import type { VerifiedDetails } from '../verify/record.ts'
import type { DevClients, Manifest } from './deploy.ts'
import { ownSources } from './ownSources.ts' with { type: 'macro' }
import ArcadeBank from '../../contracts/out/ArcadeBank.json' with { type: 'json' }
import CoinFlip from '../../contracts/out/CoinFlip.json' with { type: 'json' }
import Crash from '../../contracts/out/Crash.json' with { type: 'json' }
import DemoNFT from '../../contracts/out/DemoNFT.json' with { type: 'json' }
import Dice from '../../contracts/out/Dice.json' with { type: 'json' }
import EthUsdFeed from '../../contracts/out/EthUsdFeed.json' with { type: 'json' }
import Faucet from '../../contracts/out/Faucet.json' with { type: 'json' }
import FeeRouter from '../../contracts/out/FeeRouter.json' with { type: 'json' }
import Lottery from '../../contracts/out/Lottery.json' with { type: 'json' }
import Mines from '../../contracts/out/Mines.json' with { type: 'json' }
import NameRegistry from '../../contracts/out/NameRegistry.json' with { type: 'json' }
import Plinko from '../../contracts/out/Plinko.json' with { type: 'json' }
import Roulette from '../../contracts/out/Roulette.json' with { type: 'json' }
import Slots from '../../contracts/out/Slots.json' with { type: 'json' }
import Token from '../../contracts/out/Token.json' with { type: 'json' }
import TokenLauncher from '../../contracts/out/TokenLauncher.json' with { type: 'json' }
import WETH9 from '../../contracts/out/WETH9.json' with { type: 'json' }

/** The sources of the contracts `stack dev` deploys, built into the executable (see ownSources.ts). */
export const OWN_SOURCES = ownSources()

/**
 * A verification of one of the stack's own contracts, in the spool's shape (the composition root
 * records it: the dev chain knows no spool).
 */
export type OwnVerification = {
  address: Address
  blockNumber: null
  match: 'exact_match' | 'match'
  creationMatch: null
  runtimeMatch: 'exact_match' | 'match'
  origin: 'stack'
  name: string
  compilerVersion: string
  codeHash: Hex
  details: VerifiedDetails
}

/** A runtime code as compiled (bare hex, zeros where the immutables and the libraries' addresses go). */
type Runtime = { abi: Abi; code: string; immutableReferences: ImmutableReferences; libraries: LinkReferences }

const ourRuntime = (json: { abi: unknown; deployedBytecode: string; immutableReferences: ImmutableReferences }): Runtime => ({
  abi: json.abi as Abi,
  code: bare(json.deployedBytecode),
  immutableReferences: json.immutableReferences,
  libraries: {},
})
/**
 * The npm artifacts carry no compiler output beside the code: the immutables are found in it.
 * A library's place (`__$…$__` in the code) is zeroed and masked like an immutable.
 */
function npmRuntime(abi: unknown, deployed: string, libraries: LinkReferences = {}): Runtime {
  const places = Object.values(libraries).flatMap((byName) => Object.values(byName).flat())
  const code = bare(zero(bare(deployed).replace(/__\$[0-9a-f]{34}\$__/g, '0'.repeat(40)), places))
  const immutableReferences = immutablePlaceholders(code)
  return { abi: abi as Abi, code, immutableReferences: places.length ? { ...immutableReferences, libraries: places } : immutableReferences, libraries }
}

/** The runtime code of every contract whose sources the stack ships, as compiled. */
const RUNTIMES: Record<string, Runtime> = {
  Token: ourRuntime(Token),
  WETH9: ourRuntime(WETH9),
  Faucet: ourRuntime(Faucet),
  DemoNFT: ourRuntime(DemoNFT),
  ArcadeBank: ourRuntime(ArcadeBank),
  CoinFlip: ourRuntime(CoinFlip),
  FeeRouter: ourRuntime(FeeRouter),
  NameRegistry: ourRuntime(NameRegistry),
  TokenLauncher: ourRuntime(TokenLauncher),
  EthUsdFeed: ourRuntime(EthUsdFeed),
  Dice: ourRuntime(Dice),
  Crash: ourRuntime(Crash),
  Roulette: ourRuntime(Roulette),
  Slots: ourRuntime(Slots),
  Plinko: ourRuntime(Plinko),
  Mines: ourRuntime(Mines),
  Lottery: ourRuntime(Lottery),
  UniswapV2Factory: npmRuntime(UniswapV2FactoryBuild.abi, UniswapV2FactoryBuild.evm.deployedBytecode.object),
  UniswapV2Pair: npmRuntime(UniswapV2PairBuild.abi, UniswapV2PairBuild.evm.deployedBytecode.object),
  UniswapV3Factory: npmRuntime(UniswapV3FactoryBuild.abi, UniswapV3FactoryBuild.deployedBytecode),
  UniswapV3Pool: npmRuntime(UniswapV3PoolBuild.abi, UniswapV3PoolBuild.deployedBytecode),
  NonfungiblePositionManager: npmRuntime(NonfungiblePositionManagerBuild.abi, NonfungiblePositionManagerBuild.deployedBytecode),
  SwapRouter: npmRuntime(SwapRouterBuild.abi, SwapRouterBuild.deployedBytecode),
  NonfungibleTokenPositionDescriptor: npmRuntime(
    NonfungibleTokenPositionDescriptorBuild.abi,
    NonfungibleTokenPositionDescriptorBuild.deployedBytecode,
    NonfungibleTokenPositionDescriptorBuild.deployedLinkReferences,
  ),
  NFTDescriptor: npmRuntime(NFTDescriptorBuild.abi, NFTDescriptorBuild.deployedBytecode),
}

/** The artifact each deployed name is (the two tokens are one artifact). */
const ARTIFACT_OF: Partial<Record<keyof Manifest['contracts'], string>> = {
  BX: 'Token',
  DUSD: 'Token',
  WETH9: 'WETH9',
  Faucet: 'Faucet',
  UniswapV2Factory: 'UniswapV2Factory',
  UniswapV3Factory: 'UniswapV3Factory',
  NFTDescriptor: 'NFTDescriptor',
  NonfungibleTokenPositionDescriptor: 'NonfungibleTokenPositionDescriptor',
  NonfungiblePositionManager: 'NonfungiblePositionManager',
  SwapRouter: 'SwapRouter',
  DemoNFT: 'DemoNFT',
  ArcadeBank: 'ArcadeBank',
  CoinFlip: 'CoinFlip',
  FeeRouter: 'FeeRouter',
  NameRegistry: 'NameRegistry',
  TokenLauncher: 'TokenLauncher',
  EthUsdFeed: 'EthUsdFeed',
  Dice: 'Dice',
  Crash: 'Crash',
  Roulette: 'Roulette',
  Slots: 'Slots',
  Plinko: 'Plinko',
  Mines: 'Mines',
  Lottery: 'Lottery',
}

const PAIR_CREATED = parseAbiItem('event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index)')
const POOL_CREATED = parseAbiItem('event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)')

/**
 * The verifications of the stack's own contracts on the dev chain: each deployed contract whose
 * sources the stack ships, and the first pair and pool its factories made (every other pair and
 * pool is then known by the same-code rule). Each is checked against the chain: `exact_match`
 * when the code there is the artifact's with only the immutables' bytes its own, `match` when it
 * is equal once the metadata is masked too, and left out when it is neither (a chain where
 * something else sits at the address).
 */
export async function ownVerifications({ publicClient }: DevClients, manifest: Manifest): Promise<OwnVerification[]> {
  const targets: Array<[Address, string]> = []
  for (const [name, artifact] of Object.entries(ARTIFACT_OF)) targets.push([manifest.contracts[name as keyof Manifest['contracts']], artifact])
  const fromBlock = BigInt(manifest.deploymentBlock)
  const [pairs, pools] = await Promise.all([
    publicClient.getLogs({ address: manifest.contracts.UniswapV2Factory, event: PAIR_CREATED, fromBlock, toBlock: 'latest' }),
    publicClient.getLogs({ address: manifest.contracts.UniswapV3Factory, event: POOL_CREATED, fromBlock, toBlock: 'latest' }),
  ])
  if (pairs[0]?.args.pair) targets.push([pairs[0].args.pair, 'UniswapV2Pair'])
  if (pools[0]?.args.pool) targets.push([pools[0].args.pool, 'UniswapV3Pool'])
  const found = await Promise.all(targets.map(async ([address, artifact]) => verificationOf(address, artifact, (await publicClient.getCode({ address })) ?? '0x')))
  return found.filter((verification) => verification !== null)
}

/** The verification of `address` as `artifact` given its code on chain (hex), or null when the code is not the artifact's. */
export function verificationOf(address: Address, artifact: string, onChain: string): OwnVerification | null {
  const runtime = RUNTIMES[artifact]
  const source = OWN_SOURCES.contracts[artifact]
  const code = bare(onChain)
  if (!runtime || !source || code.length !== runtime.code.length) return null
  const mask = { immutableReferences: runtime.immutableReferences }
  const codeHash = maskedRuntimeHash(code, mask)
  if (codeHash !== maskedRuntimeHash(runtime.code, mask)) return null
  const match = zero(code, Object.values(runtime.immutableReferences).flat()) === runtime.code ? 'exact_match' : 'match'
  const sources = Object.fromEntries(Object.entries(source.sources).map(([name, file]) => [name, OWN_SOURCES.files[file]!]))
  const main = sources[source.contractIdentifier.slice(0, source.contractIdentifier.lastIndexOf(':'))] ?? ''
  return {
    address,
    blockNumber: null,
    match,
    creationMatch: null,
    runtimeMatch: match,
    origin: 'stack',
    name: artifact,
    compilerVersion: source.compilerVersion,
    codeHash,
    details: {
      abi: runtime.abi,
      sources,
      contractIdentifier: source.contractIdentifier,
      optimizer: source.optimizer,
      evmVersion: source.evmVersion,
      libraries: linkedLibraries(runtime.libraries, code),
      constructorArguments: '',
      licence: /SPDX-License-Identifier:\s*([^\s*]+)/.exec(main)?.[1] ?? null,
      stdJsonInput: source.settings ? { language: 'Solidity', sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])), settings: source.settings } : null,
      immutableReferences: runtime.immutableReferences,
    },
  }
}

/** `path:Name` of each library linked into `code` to the address the chain's code holds at its place. */
function linkedLibraries(libraries: LinkReferences, code: string): Record<string, Address> {
  const linked: Record<string, Address> = {}
  for (const [path, byName] of Object.entries(libraries)) {
    for (const [name, [first]] of Object.entries(byName)) if (first) linked[`${path}:${name}`] = getAddress(`0x${slice(code, first)}`)
  }
  return linked
}
