// Run as a macro (`import { ownSources } from './ownSources.ts' with { type: 'macro' }`): Bun
// reads the Solidity sources of the contracts `stack dev` deploys when it reads the file that
// calls it, from source or while compiling the executable, and they become a constant there.
// The binary carries them; nothing is read from node_modules at run time.
import { readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { COMPILE_SETTINGS } from '../../contracts/settings.ts'
import UniswapV2Pair from '@uniswap/v2-core/build/UniswapV2Pair.json' with { type: 'json' }

const ROOT = join(import.meta.dir, '../..')

/** How one deployed contract was compiled: its source files by the name the compiler saw, and the settings. */
export type OwnSource = {
  /** `path:Name` in the sources. */
  contractIdentifier: string
  /** Source name (as the compiler saw it) to a key of `files`. */
  sources: Record<string, string>
  compilerVersion: string
  optimizer: { enabled: boolean; runs: number }
  evmVersion: string
  /** The compile's settings beside the sources, for a standard JSON input; null when not known in full. */
  settings: Record<string, unknown> | null
}

export type OwnSources = { files: Record<string, string>; contracts: Record<string, OwnSource> }

/** Where a compile found each source name: ours beside contracts/ and in node_modules, each Uniswap package in its folder. */
type Layout = { resolve: (name: string) => string }

const OURS: Layout = {
  resolve: (name) => (name.startsWith('@') ? join('node_modules', name) : join('contracts', name)),
}
const V2_CORE: Layout = { resolve: (name) => join('node_modules/@uniswap/v2-core', name) }
// The packages leave out the files that make some contracts: contracts/vendor/ has them (its README says whence).
const V3_VENDORED = ['contracts/UniswapV3Factory.sol', 'contracts/UniswapV3Pool.sol', 'contracts/UniswapV3PoolDeployer.sol', 'contracts/NoDelegateCall.sol']
const V3_CORE: Layout = {
  resolve: (name) => join(V3_VENDORED.includes(name) ? 'contracts/vendor/uniswap-v3-core' : 'node_modules/@uniswap/v3-core', name),
}

const PERIPHERY_VENDORED = ['contracts/NonfungiblePositionManager.sol', 'contracts/SwapRouter.sol', 'contracts/NonfungibleTokenPositionDescriptor.sol']
const V3_PERIPHERY: Layout = {
  resolve: (name) => {
    if (PERIPHERY_VENDORED.includes(name)) return join('contracts/vendor/uniswap-v3-periphery', name)
    if (name === 'base64-sol/base64.sol') return 'contracts/vendor/base64-sol/base64.sol'
    // Built against OpenZeppelin 3.4 (its own copy in the package's node_modules) and V3 core.
    if (name.startsWith('@openzeppelin/')) return join('node_modules/@uniswap/v3-periphery/node_modules', name)
    if (name.startsWith('@')) return join('node_modules', name)
    return join('node_modules/@uniswap/v3-periphery', name)
  },
}

const IMPORT = /^\s*import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm

/** Every source a file needs, by its source name (relative imports resolved against the importer's name). */
function closure(main: string, layout: Layout, files: Record<string, string>): Record<string, string> {
  const found: Record<string, string> = {}
  const pending = [main]
  while (pending.length > 0) {
    const name = pending.pop()!
    if (found[name]) continue
    const file = layout.resolve(name)
    const content = readFileSync(join(ROOT, file), 'utf8')
    files[file] = content
    found[name] = file
    for (const [, target] of content.matchAll(IMPORT)) {
      pending.push(target!.startsWith('.') ? posix.normalize(posix.join(dirname(name), target!)) : target!)
    }
  }
  return found
}

/**
 * The sources of the deployed contracts whose sources their packages hold in full. Ours were
 * compiled by contracts/compile.ts (every file of contracts/ with its imports from node_modules).
 * Uniswap V2 core: by solc 0.5.16, as its build's metadata says. Uniswap V3 core: by solc 0.7.6,
 * optimizer 800 runs and no metadata hash, as its repository's hardhat config says; the four
 * files its package leaves out are in contracts/vendor/. Uniswap V3 periphery: by solc 0.7.6, the
 * runs its hardhat config gives each contract, no metadata hash; the files its package leaves out
 * (the position manager, the swap router, the token descriptor, and the base64 library the NFT
 * descriptor imports) are in contracts/vendor/ too.
 */
export function ownSources(): OwnSources {
  const files: Record<string, string> = {}
  const contracts: Record<string, OwnSource> = {}
  const ourVersion = (JSON.parse(readFileSync(join(ROOT, 'contracts/out/Token.json'), 'utf8')) as { compilerVersion: string }).compilerVersion
  const ours = ['Token', 'WETH9', 'Faucet', 'DemoNFT', 'ArcadeBank', 'CoinFlip', 'FeeRouter', 'NameRegistry', 'TokenLauncher', 'EthUsdFeed', 'Dice', 'Crash', 'Roulette', 'Slots', 'Plinko', 'Mines', 'Lottery']
  for (const name of ours) {
    const path = `${name}.sol`
    contracts[name] = {
      contractIdentifier: `${path}:${name}`,
      sources: closure(path, OURS, files),
      compilerVersion: ourVersion,
      optimizer: { ...COMPILE_SETTINGS.optimizer },
      evmVersion: COMPILE_SETTINGS.evmVersion,
      settings: { ...COMPILE_SETTINGS, outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode'] } } },
    }
  }
  const v2 = JSON.parse(UniswapV2Pair.metadata) as { compiler: { version: string }; settings: { optimizer: { enabled: boolean; runs: number }; evmVersion: string } }
  for (const name of ['UniswapV2Factory', 'UniswapV2Pair']) {
    const path = `contracts/${name}.sol`
    contracts[name] = {
      contractIdentifier: `${path}:${name}`,
      sources: closure(path, V2_CORE, files),
      compilerVersion: `v${v2.compiler.version}`,
      optimizer: v2.settings.optimizer,
      evmVersion: v2.settings.evmVersion,
      settings: { optimizer: v2.settings.optimizer, evmVersion: v2.settings.evmVersion, outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode'] } } },
    }
  }
  const v3 = { optimizer: { enabled: true, runs: 800 }, evmVersion: 'istanbul', metadata: { bytecodeHash: 'none' } }
  for (const name of ['UniswapV3Factory', 'UniswapV3Pool']) {
    const path = `contracts/${name}.sol`
    contracts[name] = {
      contractIdentifier: `${path}:${name}`,
      sources: closure(path, V3_CORE, files),
      compilerVersion: 'v0.7.6+commit.7338295f',
      optimizer: v3.optimizer,
      evmVersion: v3.evmVersion,
      settings: { ...v3, outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode'] } } },
    }
  }
  const periphery: Array<[string, string, number]> = [
    ['NonfungiblePositionManager', 'contracts/NonfungiblePositionManager.sol', 2_000],
    ['SwapRouter', 'contracts/SwapRouter.sol', 1_000_000],
    ['NonfungibleTokenPositionDescriptor', 'contracts/NonfungibleTokenPositionDescriptor.sol', 1_000],
    ['NFTDescriptor', 'contracts/libraries/NFTDescriptor.sol', 1_000],
  ]
  for (const [name, path, runs] of periphery) {
    const settings = { optimizer: { enabled: true, runs }, evmVersion: 'istanbul', metadata: { bytecodeHash: 'none' } }
    contracts[name] = {
      contractIdentifier: `${path}:${name}`,
      sources: closure(path, V3_PERIPHERY, files),
      compilerVersion: 'v0.7.6+commit.7338295f',
      optimizer: settings.optimizer,
      evmVersion: settings.evmVersion,
      settings: { ...settings, outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode'] } } },
    }
  }
  return { files, contracts }
}
