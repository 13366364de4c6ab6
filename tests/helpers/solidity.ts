import solc from 'solc'
import type { Abi, Hex } from 'viem'

/** A contract as solc-js compiled it: what forge and hardhat write of it to their artifacts. */
export type Compiled = {
  abi: Abi
  bytecode: Hex
  deployedBytecode: Hex
  immutableReferences: Record<string, Array<{ start: number; length: number }>>
  /** The metadata JSON as solc wrote it. */
  metadata: string
}

/** A standard JSON input of `sources` (path to content) with the settings forge uses by default. */
export function standardInput(sources: Record<string, string>) {
  return {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([path, content]) => [path, { content }])),
    settings: {
      optimizer: { enabled: false, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'metadata', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] } },
    },
  }
}

/** Compiles with the solc-js the stack carries; every contract of every source, by `path:Name`, and the whole output. */
export function compileSolidity(sources: Record<string, string>): { input: ReturnType<typeof standardInput>; output: any; contracts: Record<string, Compiled> } {
  const input = standardInput(sources)
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((error: { severity: string }) => error.severity === 'error')
  if (errors.length) throw new Error(errors.map((error: { formattedMessage: string }) => error.formattedMessage).join('\n'))
  const contracts: Record<string, Compiled> = {}
  for (const [path, byName] of Object.entries(output.contracts as Record<string, Record<string, any>>)) {
    for (const [name, contract] of Object.entries(byName)) {
      contracts[`${path}:${name}`] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
        immutableReferences: contract.evm.deployedBytecode.immutableReferences ?? {},
        metadata: contract.metadata,
      }
    }
  }
  return { input, output, contracts }
}
