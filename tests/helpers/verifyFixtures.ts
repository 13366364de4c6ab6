import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import solc from 'solc'
import { createPublicClient, createWalletClient, http, type Abi, type Hex } from 'viem'
import { foundry } from 'viem/chains'
import { privateKeyToAccount } from 'viem/accounts'
import { ANVIL_DEV_KEYS } from '../../src/devnet/accounts.ts'
import { ROOT } from './stack.ts'

/** The Solidity fixtures of verification (small contracts: plain, constructor arguments, immutables, a linked library, a factory). */
export const VERIFY_FIXTURES = join(ROOT, 'tests/fixtures/verify')

/** The bundled solc-js's long version, as forge and hardhat send it: `v0.8.37+commit.f401782d`. */
export const SOLCJS_VERSION = `v${(solc.version() as string).replace(/\.Emscripten.*$/, '')}`

export function fixtureSource(file: string): string {
  return readFileSync(join(VERIFY_FIXTURES, file), 'utf8')
}

export type StandardInput = {
  language: 'Solidity'
  sources: Record<string, { content: string }>
  settings: { optimizer: { enabled: boolean; runs: number }; evmVersion?: string; outputSelection: Record<string, Record<string, string[]>>; libraries?: Record<string, Record<string, string>> }
}

/**
 * A standard JSON input as forge writes one: each fixture under `src/`, the optimizer on with 200
 * runs, sources inline. `sources` maps a file to its text when a test changes it.
 */
export function standardInput(files: string[] | Record<string, string>, settings: Partial<StandardInput['settings']> = {}): StandardInput {
  const texts = Array.isArray(files) ? Object.fromEntries(files.map((file) => [file, fixtureSource(file)])) : files
  return {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(texts).map(([file, content]) => [`src/${file}`, { content }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'metadata'] } },
      ...settings,
    },
  }
}

export type CompiledFixture = {
  abi: Abi
  /** Creation code, 0x-hex, library placeholders unfilled. */
  bytecode: Hex
  linkReferences: Record<string, Record<string, Array<{ start: number; length: number }>>>
  deployedBytecode: Hex
}

/** Compiles with the solc-js of node_modules; throws on the first error. `contract` is `src/File.sol:Name`. */
export function compileFixture(input: StandardInput, contract: string): CompiledFixture {
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const error = output.errors?.find((entry: { severity: string }) => entry.severity === 'error')
  if (error) throw new Error(error.formattedMessage)
  const at = contract.lastIndexOf(':')
  const target = output.contracts[contract.slice(0, at)][contract.slice(at + 1)]
  return {
    abi: target.abi,
    bytecode: `0x${target.evm.bytecode.object}`,
    linkReferences: target.evm.bytecode.linkReferences,
    deployedBytecode: `0x${target.evm.deployedBytecode.object}`,
  }
}

/** Creation code with each library's placeholders filled (`src/File.sol:Lib` → address). */
export function linkBytecode(compiled: CompiledFixture, libraries: Record<string, Hex>): Hex {
  let code = compiled.bytecode.slice(2)
  for (const [file, names] of Object.entries(compiled.linkReferences)) {
    for (const [name, ranges] of Object.entries(names)) {
      const address = libraries[`${file}:${name}`]
      if (!address) throw new Error(`no address for the library ${file}:${name}`)
      for (const { start, length } of ranges) code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2)
    }
  }
  return `0x${code}`
}

export type Deployed = { address: Hex; txHash: Hex; creationInput: Hex; runtimeCode: Hex }

/** Deploys with viem from anvil's first account and reads back what a verifier is given: the creation input and the code. */
export async function deployFixture(rpcUrl: string, compiled: CompiledFixture, options: { args?: unknown[]; libraries?: Record<string, Hex> } = {}): Promise<Deployed> {
  const account = privateKeyToAccount(ANVIL_DEV_KEYS[0]!)
  const chain = { ...foundry, id: 78270 }
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) })
  const client = createPublicClient({ chain, transport: http(rpcUrl) })
  const bytecode = options.libraries ? linkBytecode(compiled, options.libraries) : compiled.bytecode
  const txHash = await wallet.deployContract({ abi: compiled.abi, bytecode, args: options.args ?? [] } as Parameters<typeof wallet.deployContract>[0])
  const receipt = await client.waitForTransactionReceipt({ hash: txHash })
  if (!receipt.contractAddress || receipt.status !== 'success') throw new Error(`the deployment ${txHash} failed`)
  const transaction = await client.getTransaction({ hash: txHash })
  const runtimeCode = (await client.getCode({ address: receipt.contractAddress })) ?? '0x'
  return { address: receipt.contractAddress, txHash, creationInput: transaction.input, runtimeCode }
}

/**
 * A stand-in for forge's compiler in svm's layout under `home` (`.svm/<v>/solc-<v>`): a script
 * that answers `--version` and `--standard-json` with the solc-js of node_modules. Returns its path.
 */
export function installSolcStandin(home: string, version = SOLCJS_VERSION.slice(1).replace(/\+.*$/, '')): string {
  const dir = join(home, '.svm', version)
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `solc-${version}`)
  writeFileSync(path, `#!/bin/sh\nexec '${process.execPath}' '${join(VERIFY_FIXTURES, 'solc-standin.ts')}' "$@"\n`)
  chmodSync(path, 0o755)
  return path
}
