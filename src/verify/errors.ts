import { InvalidInputError, LimitError, StackError, type StackErrorOptions } from '../errors.ts'

/**
 * Why a verification could not be tried, by kind: a caller (Etherscan's NOTOK, Sourcify's
 * customCode) matches on `code` or the class, and shows `message` as it is.
 */
export type VerificationErrorCode =
  | 'not_json'
  | 'too_large'
  | 'bad_input'
  | 'contract_not_found'
  | 'unknown_compiler'
  | 'compile_error'
  | 'compile_timeout'

/** What the caller sent cannot be verified as it is (a 400 over HTTP). */
export class VerificationInputError extends InvalidInputError {
  override name = 'VerificationInputError'
  constructor(
    readonly code: VerificationErrorCode,
    message: string,
    options?: StackErrorOptions,
  ) {
    super(message, options)
  }
}

/** The standard JSON input is not JSON, or not an object. */
export class NotJsonError extends VerificationInputError {
  override name = 'NotJsonError'
  constructor(message: string) {
    super('not_json', message)
  }
}

/** The input, one of its sources or the compiler's output is past its size bound. */
export class InputTooLargeError extends VerificationInputError {
  override name = 'InputTooLargeError'
  constructor(message: string) {
    super('too_large', message)
  }
}

/** `path:Name` is not a contract of the input (or of what it compiles to). */
export class ContractNotFoundError extends VerificationInputError {
  override name = 'ContractNotFoundError'
  constructor(message: string) {
    super('contract_not_found', message)
  }
}

/** No compiler of that version in any place searched; `places` lists them all. */
export class CompilerNotFoundError extends VerificationInputError {
  override name = 'CompilerNotFoundError'
  constructor(
    readonly version: string,
    readonly places: string[],
  ) {
    super('unknown_compiler', `no compiler ${version} is available (looked in: ${places.join('; ')})`, { details: { version, places } })
  }
}

/** The compiler refused the input; the message is its first error. */
export class CompileError extends VerificationInputError {
  override name = 'CompileError'
  constructor(message: string) {
    super('compile_error', message)
  }
}

/** The compile ran past its time limit and was killed. */
export class CompileTimeoutError extends VerificationInputError {
  override name = 'CompileTimeoutError'
  constructor(seconds: number) {
    super('compile_timeout', `the compile took longer than ${seconds} s`)
  }
}

export const QUEUE_FULL_MESSAGE = 'the verification queue is full, try again'

/** As many verifications wait as the queue holds: refused at once. */
export class VerificationQueueFullError extends LimitError {
  override name = 'VerificationQueueFullError'
  readonly code = 'queue_full'
  constructor() {
    super(QUEUE_FULL_MESSAGE)
  }
}

/** The compiler itself failed (crashed, answered no JSON): not the input's fault. */
export class CompilerFailedError extends StackError {
  override name = 'CompilerFailedError'
  readonly code = 'compiler_failed'
}
