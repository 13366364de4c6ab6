import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import solc from 'solc'
import { COMPILE_SETTINGS } from './settings.ts'

export const CONTRACTS_DIR = import.meta.dir
const NODE_MODULES = resolve(import.meta.dir, '../node_modules')

export type Artifact = {
  contractName: string
  abi: unknown[]
  bytecode: `0x${string}`
  /** The runtime code as compiled: zeros where the constructor writes the immutables. */
  deployedBytecode: `0x${string}`
  /** Where the immutables sit in the runtime code, by AST id: what a verification masks. */
  immutableReferences: Record<string, Array<{ start: number; length: number }>>
  /** The compiler, as a verification names it (`v0.8.37+commit.f401782d`). */
  compilerVersion: string
}

/**
 * Compiles every .sol file in contracts/ with the npm package solc (no network: imports such as
 * @openzeppelin/... are read from node_modules). Settings are fixed so the output is the same
 * on every machine.
 */
export function compileContracts(): Record<string, Artifact> {
  const sources: Record<string, { content: string }> = {}
  for (const file of readdirSync(CONTRACTS_DIR).filter((name) => name.endsWith('.sol')).sort()) {
    sources[file] = { content: readFileSync(join(CONTRACTS_DIR, file), 'utf8') }
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      ...COMPILE_SETTINGS,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] } },
    },
  }
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(join(NODE_MODULES, path), 'utf8') }
    } catch {
      return { error: `not found: ${path}` }
    }
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }))
  const errors = (output.errors ?? []).filter((entry: { severity: string }) => entry.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((entry: { formattedMessage: string }) => entry.formattedMessage).join('\n'))

  const compilerVersion = `v${solc.version().replace(/\.Emscripten.*$/, '')}`
  const artifacts: Record<string, Artifact> = {}
  for (const file of Object.keys(sources)) {
    for (const [contractName, contract] of Object.entries(output.contracts[file] as Record<string, any>)) {
      artifacts[contractName] = {
        contractName,
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
        immutableReferences: contract.evm.deployedBytecode.immutableReferences ?? {},
        compilerVersion,
      }
    }
  }
  return artifacts
}

/** The artifacts the dev chain deploys, as committed under contracts/out/. */
export const DEPLOYED = ['Token', 'WETH9', 'Faucet', 'DemoNFT', 'ArcadeBank', 'CoinFlip', 'FeeRouter', 'NameRegistry', 'TokenLauncher', 'EthUsdFeed', 'Dice', 'Crash', 'Roulette', 'Slots', 'Plinko', 'Mines', 'Lottery'] as const
