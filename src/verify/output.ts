import type { Abi } from 'viem'
import { auxdataOf, bare, type ImmutableReferences, type LinkReferences } from './bytecode.ts'
import { CompileError, CompilerFailedError, ContractNotFoundError } from './errors.ts'
import type { CompiledContract } from './match.ts'

type OutputContract = {
  abi?: Abi
  metadata?: string
  evm?: {
    bytecode?: { object?: string; linkReferences?: LinkReferences }
    deployedBytecode?: { object?: string; linkReferences?: LinkReferences; immutableReferences?: ImmutableReferences }
  }
}

type CompilerOutput = {
  errors?: Array<{ severity?: string; type?: string; message?: string; formattedMessage?: string }>
  contracts?: Record<string, Record<string, OutputContract>>
}

/** The parts of solc's metadata the result reports. */
export type ContractMetadata = {
  compiler?: { version?: string }
  settings?: { optimizer?: { enabled?: boolean; runs?: number }; evmVersion?: string; libraries?: Record<string, string> }
  [key: string]: unknown
}

/** The compiled target, what its metadata says, and the whole compile's output it came from. */
export type CompiledTarget = { contract: CompiledContract; metadata: ContractMetadata | null }

/**
 * The compiler's output read for `path:name`: its first error thrown as CompileError (the
 * compiler's own words and place), a contract it did not make as ContractNotFoundError.
 */
export function readOutput(text: string, path: string, name: string): CompiledTarget {
  let output: CompilerOutput
  try {
    output = JSON.parse(text) as CompilerOutput
  } catch {
    throw new CompilerFailedError(`the compiler answered something other than JSON: ${text.slice(0, 200)}`)
  }
  const error = output.errors?.find((entry) => entry.severity === 'error')
  if (error) throw new CompileError(compilerMessage(error))
  const target = output.contracts?.[path]?.[name]
  if (!target) throw new ContractNotFoundError(`the contract ${path}:${name} is not in the compiler's output: ${path} has ${Object.keys(output.contracts?.[path] ?? {}).join(', ') || 'no contract'}`)

  const auxdatas = new Set<string>()
  for (const file of Object.values(output.contracts ?? {})) {
    for (const contract of Object.values(file)) {
      for (const object of [contract.evm?.bytecode?.object, contract.evm?.deployedBytecode?.object]) {
        const auxdata = object ? auxdataOf(bare(object)) : null
        if (auxdata) auxdatas.add(auxdata)
      }
    }
  }
  let metadata: ContractMetadata | null = null
  try {
    metadata = target.metadata ? (JSON.parse(target.metadata) as ContractMetadata) : null
  } catch {
    metadata = null
  }
  return {
    contract: {
      abi: target.abi ?? [],
      creation: bare(target.evm?.bytecode?.object ?? ''),
      runtime: bare(target.evm?.deployedBytecode?.object ?? ''),
      creationLinks: target.evm?.bytecode?.linkReferences ?? {},
      runtimeLinks: target.evm?.deployedBytecode?.linkReferences ?? {},
      immutableReferences: target.evm?.deployedBytecode?.immutableReferences ?? {},
      auxdatas: [...auxdatas],
    },
    metadata,
  }
}

/** The first line of the compiler's message and where it points (` --> file:line:column:`). */
function compilerMessage(error: { type?: string; message?: string; formattedMessage?: string }): string {
  const formatted = error.formattedMessage ?? ''
  const headline = formatted.split('\n', 1)[0]?.trim() || `${error.type ?? 'Error'}: ${error.message ?? 'the compile failed'}`
  const place = /-->\s*(\S+?):?\s*$/m.exec(formatted)?.[1]
  return (place ? `${headline} (${place})` : headline).slice(0, 1000)
}
