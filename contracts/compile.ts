import { readFileSync, readdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import solc from 'solc'

export const CONTRACTS_DIR = import.meta.dir
const NODE_MODULES = resolve(import.meta.dir, '../node_modules')

export type Artifact = { contractName: string; abi: unknown[]; bytecode: `0x${string}` }

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
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
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

  const artifacts: Record<string, Artifact> = {}
  for (const file of Object.keys(sources)) {
    for (const [contractName, contract] of Object.entries(output.contracts[file] as Record<string, any>)) {
      artifacts[contractName] = { contractName, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
    }
  }
  return artifacts
}

/** The artifacts the dev chain deploys, as committed under contracts/out/. */
export const DEPLOYED = ['Token', 'WETH9', 'Faucet', 'DemoNFT', 'ArcadeBank', 'CoinFlip', 'FeeRouter', 'NameRegistry', 'TokenLauncher', 'EthUsdFeed', 'Dice', 'Crash', 'Roulette', 'Slots', 'Plinko', 'Mines', 'Lottery'] as const
