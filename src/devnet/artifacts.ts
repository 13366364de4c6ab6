import type { Abi, Hex } from 'viem'
// Imported, not read from disk, so the compiled binary carries them.
import UniswapV2Factory from '@uniswap/v2-core/build/UniswapV2Factory.json' with { type: 'json' }
import UniswapV2Pair from '@uniswap/v2-core/build/UniswapV2Pair.json' with { type: 'json' }
import UniswapV3Factory from '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json' with { type: 'json' }
import UniswapV3Pool from '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json' with { type: 'json' }
import NFTDescriptor from '@uniswap/v3-periphery/artifacts/contracts/libraries/NFTDescriptor.sol/NFTDescriptor.json' with { type: 'json' }
import NonfungiblePositionManager from '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json' with { type: 'json' }
import NonfungibleTokenPositionDescriptor from '@uniswap/v3-periphery/artifacts/contracts/NonfungibleTokenPositionDescriptor.sol/NonfungibleTokenPositionDescriptor.json' with { type: 'json' }
import SwapRouter from '@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json' with { type: 'json' }
import ArcadeBank from '../../contracts/out/ArcadeBank.json' with { type: 'json' }
import CoinFlip from '../../contracts/out/CoinFlip.json' with { type: 'json' }
import Crash from '../../contracts/out/Crash.json' with { type: 'json' }
import DemoNFT from '../../contracts/out/DemoNFT.json' with { type: 'json' }
import Dice from '../../contracts/out/Dice.json' with { type: 'json' }
import Faucet from '../../contracts/out/Faucet.json' with { type: 'json' }
import EthUsdFeed from '../../contracts/out/EthUsdFeed.json' with { type: 'json' }
import FeeRouter from '../../contracts/out/FeeRouter.json' with { type: 'json' }
import NameRegistry from '../../contracts/out/NameRegistry.json' with { type: 'json' }
import TokenLauncher from '../../contracts/out/TokenLauncher.json' with { type: 'json' }
import Lottery from '../../contracts/out/Lottery.json' with { type: 'json' }
import Mines from '../../contracts/out/Mines.json' with { type: 'json' }
import Plinko from '../../contracts/out/Plinko.json' with { type: 'json' }
import Roulette from '../../contracts/out/Roulette.json' with { type: 'json' }
import Slots from '../../contracts/out/Slots.json' with { type: 'json' }
import Token from '../../contracts/out/Token.json' with { type: 'json' }
import WETH9 from '../../contracts/out/WETH9.json' with { type: 'json' }

export type Artifact = { abi: Abi; bytecode: Hex }

const artifact = (json: { abi: unknown; bytecode: string }): Artifact => ({
  abi: json.abi as Abi,
  bytecode: (json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`) as Hex,
})

/** Our own contracts (contracts/*.sol, compiled with solc into contracts/out/). */
export const ours = {
  Token: artifact(Token),
  WETH9: artifact(WETH9),
  Faucet: artifact(Faucet),
  DemoNFT: artifact(DemoNFT),
  ArcadeBank: artifact(ArcadeBank),
  CoinFlip: artifact(CoinFlip),
  FeeRouter: artifact(FeeRouter),
  NameRegistry: artifact(NameRegistry),
  TokenLauncher: artifact(TokenLauncher),
  EthUsdFeed: artifact(EthUsdFeed),
  Dice: artifact(Dice),
  Crash: artifact(Crash),
  Roulette: artifact(Roulette),
  Slots: artifact(Slots),
  Plinko: artifact(Plinko),
  Mines: artifact(Mines),
  Lottery: artifact(Lottery),
}

/** The audited Uniswap contracts, as compiled in their npm packages (mainnet bytecode). */
export const uniswap = {
  UniswapV2Factory: artifact(UniswapV2Factory),
  UniswapV2Pair: artifact(UniswapV2Pair),
  UniswapV3Factory: artifact(UniswapV3Factory),
  UniswapV3Pool: artifact(UniswapV3Pool),
  NFTDescriptor: artifact(NFTDescriptor),
  NonfungibleTokenPositionDescriptor: {
    ...artifact(NonfungibleTokenPositionDescriptor),
    linkReferences: NonfungibleTokenPositionDescriptor.linkReferences as Record<string, Record<string, Array<{ start: number; length: number }>>>,
  },
  NonfungiblePositionManager: artifact(NonfungiblePositionManager),
  SwapRouter: artifact(SwapRouter),
}

/** Writes library addresses into the placeholders of unlinked bytecode. */
export function link(
  bytecode: Hex,
  references: Record<string, Record<string, Array<{ start: number; length: number }>>>,
  libraries: Record<string, Hex>,
): Hex {
  let hex = bytecode.slice(2)
  for (const [, byName] of Object.entries(references)) {
    for (const [name, spots] of Object.entries(byName)) {
      const address = libraries[name]
      if (!address) throw new Error(`no address for library ${name}`)
      for (const { start, length } of spots) {
        hex = hex.slice(0, start * 2) + address.slice(2).toLowerCase() + hex.slice((start + length) * 2)
      }
    }
  }
  return `0x${hex}`
}
