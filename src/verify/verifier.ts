import type { Abi, Hex } from 'viem'
import type { Logger } from '../log.ts'
import type { ByteRange, ImmutableReferences } from './bytecode.ts'
import { probeBundled, probeNative, runCompiler } from './compile.ts'
import { compilerPlaces, findCompiler, type CompilerPlaces } from './compilers.ts'
import { CompilerFailedError, VerificationInputError } from './errors.ts'
import { prepareInput, type StandardJsonInput } from './input.ts'
import { matchContract, type MatchKind } from './match.ts'
import { readOutput } from './output.ts'
import { JobQueue } from './queue.ts'
import { endIdleWorkers } from './warmWorkers.ts'
import { longVersion, parseCompilerVersion } from './version.ts'

export type VerifierSettings = {
  /** `verify.compilers`: a folder of compilers (absolute), or null for none. */
  compilers: string | null
  /** Compiles at once. */
  concurrency: number
  /** A compile's time limit; it is killed at it. */
  timeoutSeconds: number
  /** The most verifications waiting for a compile. */
  queue: number
  /** Where compilers are looked for; by default the configured folder and the user's svm and hardhat caches. */
  places?: CompilerPlaces
  /** The largest standard JSON input, in bytes (16 MiB). */
  maxInputBytes?: number
  /** The most bytes of the compiler's output read (64 MiB). */
  maxOutputBytes?: number
}

export type VerifyRequest = {
  /** The standard JSON input, parsed (parseStandardJson reads one sent as text). */
  stdJsonInput: unknown
  /** `v0.8.37+commit.f401782d` or `0.8.37`. */
  compilerVersion: string
  /** `path:Name`. */
  contractIdentifier: string
  /** The code at the address (eth_getCode). */
  chainCode: string
  /** The creation transaction's input, or the creating frame's input for a contract a factory made; null when unknown. */
  creationInput: string | null
}

export type VerifyResult = {
  match: MatchKind | null
  creationMatch: MatchKind | null
  runtimeMatch: MatchKind | null
  abi: Abi
  /** The contract's name (`Counter`); `contractIdentifier` is `path:Name`. */
  contractName: string
  contractPath: string
  contractIdentifier: string
  /** The compiler's long version, `v0.8.37+commit.f401782d`. */
  compilerVersion: string
  optimizer: { enabled: boolean; runs: number }
  /** The EVM version compiled for (the compiler's default when the input set none). */
  evmVersion: string
  /** `path:Name` of each library to its address. */
  libraries: Record<string, Hex>
  /** 0x-hex, `0x` when the constructor takes none; null without a creation match. */
  constructorArguments: Hex | null
  immutableReferences: ImmutableReferences
  /** Where the runtime code holds metadata (masked for a partial match and for the same-code rule). */
  runtimeAuxdata: ByteRange[]
  /** Every source of the input, path to content. */
  sources: Record<string, string>
  /** The SPDX licence identifier of the contract's source, or null. */
  licence: string | null
  /** solc's metadata of the contract, parsed; null when the compiler gave none. */
  metadata: Record<string, unknown> | null
  /** The input as compiled (its settings as sent, the output selection the verifier's own). */
  stdJsonInput: StandardJsonInput
  /** Why it did not match; null when it did. */
  reason: string | null
}

export type Verifier = {
  /**
   * Compiles and matches. A full queue rejects at once (VerificationQueueFullError: the decision
   * is taken when called); bad input rejects with a VerificationInputError naming what is wrong.
   * A compile that runs and does not match resolves with `match: null` and a reason.
   */
  verify(request: VerifyRequest): Promise<VerifyResult>
  /** Verifications waiting for a compile. */
  queueLength(): number
  /** Whether verify() would refuse a new request now. */
  isFull(): boolean
  /** Refuses new requests and stops the compiles under way. */
  stop(): void
}

const MIB = 1024 * 1024

/** The one entry point: the queue, the compilers' search, the compile off the event loop, and the match. */
export function createVerifier(settings: VerifierSettings, log: Logger): Verifier {
  const queue = new JobQueue(settings.concurrency, settings.queue)
  const places = settings.places ?? compilerPlaces({ folder: settings.compilers })
  const maxInputBytes = settings.maxInputBytes ?? 16 * MIB
  const maxOutputBytes = settings.maxOutputBytes ?? 64 * MIB
  const stopping = new AbortController()

  async function run(request: VerifyRequest): Promise<VerifyResult> {
    const started = performance.now()
    const { input, text, path, name } = prepareInput(request.stdJsonInput, request.contractIdentifier, maxInputBytes)
    const version = parseCompilerVersion(request.compilerVersion)
    const compiler = await findCompiler(version, places, { native: probeNative, bundled: () => probeBundled() })
    const compiled = await queue.inSlot(() => {
      if (stopping.signal.aborted) throw new CompilerFailedError('the verifier is stopped')
      return runCompiler(compiler, text, { timeoutSeconds: settings.timeoutSeconds, maxOutputBytes, signal: stopping.signal })
    })
    const { contract, metadata } = readOutput(compiled.output, path, name)
    if (contract.runtime.length === 0) throw new VerificationInputError('bad_input', `the contract ${path}:${name} has no code (an interface or an abstract contract)`)
    const outcome = matchContract(contract, { runtimeCode: request.chainCode, creationInput: request.creationInput })
    const reported = metadata?.compiler?.version ?? compiled.version ?? compiler.version ?? ''
    const settingsLibraries = Object.fromEntries(
      Object.entries(input.settings.libraries ?? {}).flatMap(([file, names]) => Object.entries(names).map(([lib, address]) => [`${file}:${lib}`, address.toLowerCase() as Hex])),
    )
    const result: VerifyResult = {
      match: outcome.match,
      creationMatch: outcome.creationMatch,
      runtimeMatch: outcome.runtimeMatch,
      abi: contract.abi,
      contractName: name,
      contractPath: path,
      contractIdentifier: `${path}:${name}`,
      compilerVersion: longVersion(reported) ?? compiler.version ?? `v${version.short}`,
      optimizer: { enabled: metadata?.settings?.optimizer?.enabled ?? false, runs: metadata?.settings?.optimizer?.runs ?? 200 },
      evmVersion: metadata?.settings?.evmVersion ?? (typeof input.settings.evmVersion === 'string' ? input.settings.evmVersion : 'default'),
      libraries: { ...settingsLibraries, ...outcome.libraries },
      constructorArguments: outcome.constructorArguments,
      immutableReferences: contract.immutableReferences,
      runtimeAuxdata: outcome.runtimeAuxdata,
      sources: Object.fromEntries(Object.entries(input.sources).map(([file, source]) => [file, source.content])),
      licence: licence(input.sources[path]?.content ?? ''),
      metadata,
      stdJsonInput: input,
      reason: outcome.reason,
    }
    log.info({ contract: result.contractIdentifier, compiler: result.compilerVersion, source: compiler.source, match: result.match, ms: Math.round(performance.now() - started) }, 'verification compiled and matched')
    return result
  }

  return {
    verify(request) {
      if (stopping.signal.aborted) return Promise.reject(new CompilerFailedError('the verifier is stopped'))
      let place: { leave: () => void }
      try {
        place = queue.admit()
      } catch (error) {
        return Promise.reject(error)
      }
      return run(request).finally(place.leave)
    },
    queueLength: () => queue.waiting,
    isFull: () => queue.full,
    stop: () => {
      stopping.abort()
      endIdleWorkers()
    },
  }
}

/** The SPDX identifier a source declares (`// SPDX-License-Identifier: MIT`), or null. */
export function licence(source: string): string | null {
  return /SPDX-License-Identifier:\s*([A-Za-z0-9.+()\- ]+?)\s*(?:\*\/|$)/m.exec(source)?.[1]?.trim() ?? null
}
