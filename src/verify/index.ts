// What other parts use of verification (docs/verification.md): one verifier, the inputs it
// reads, its errors by kind, and the same-code key.
export { createVerifier, licence, type Verifier, type VerifierSettings, type VerifyRequest, type VerifyResult } from './verifier.ts'
export { parseStandardJson, singleFileInput, splitIdentifier, type SingleFileOptions, type StandardJsonInput } from './input.ts'
export { maskedRuntimeHash, maskRuntime, type ByteRange, type ImmutableReferences, type RuntimeMask } from './bytecode.ts'
export { matchContract, type ChainFacts, type CompiledContract, type MatchKind, type MatchOutcome } from './match.ts'
export { compilerPlaces, type CompilerPlaces } from './compilers.ts'
export { parseCompilerVersion } from './version.ts'
export {
  CompileError,
  CompilerFailedError,
  CompilerNotFoundError,
  CompileTimeoutError,
  ContractNotFoundError,
  InputTooLargeError,
  NotJsonError,
  QUEUE_FULL_MESSAGE,
  VerificationInputError,
  VerificationQueueFullError,
  type VerificationErrorCode,
} from './errors.ts'
