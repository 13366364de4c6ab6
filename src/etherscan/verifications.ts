import type { Address, Hex } from 'viem'
import { fromChain, type Chain } from '../chain/client.ts'
import { detectProxy } from '../contracts/proxy.ts'
import { ConflictError, firstLine, InvalidInputError, LimitError, NotFoundError } from '../errors.ts'
import { addressKey } from '../eth/address.ts'
import { blob, hex } from '../eth/bytes.ts'
import type { Logger } from '../log.ts'
import { creationOf, spoolHead } from '../spool/read.ts'
import type { Spool } from '../spool/spool.ts'
import { verifiedContract, type MatchKind, type VerificationOrigin, type VerificationWriter, type VerifiedContract } from '../spool/verified.ts'
import { pollUntil } from '../time/poll.ts'
import { maskedRuntimeHash } from '../verify/bytecode.ts'
import { CompilerFailedError, VerificationInputError, VerificationQueueFullError } from '../verify/errors.ts'
import type { Verifier } from '../verify/verifier.ts'
import type { Job, Jobs } from './jobs.ts'

/** What either API asks to verify: a standard JSON input, the compiler and the contract in it. */
export type VerificationRequest = {
  address: Address
  stdJsonInput: Record<string, unknown>
  /** As the client wrote it: `v0.8.37+commit.f401782d` (Etherscan's) or `0.8.37+commit.f401782d` (Sourcify's). */
  compilerVersion: string
  /** `path:Name` in the input's sources. */
  contractIdentifier: string
  /** Hex without 0x as the client sent them (Etherscan's form), or null when it sent none. */
  constructorArguments: string | null
  /** The creating transaction as the client names it (Sourcify's), checked against the spool's; null when not named. */
  creationTransactionHash: Hex | null
  origin: Exclude<VerificationOrigin, 'stack'>
}

/** The address already has a verification as good as the API asks (Etherscan: any; Sourcify: exact on both codes). */
export class AlreadyVerifiedError extends ConflictError {
  override name = 'AlreadyVerifiedError'
}
/** Nothing is deployed at the address. */
export class NoContractCodeError extends NotFoundError {
  override name = 'NoContractCodeError'
}
/** A verification of this address is already running (Sourcify refuses a second). */
export class DuplicateVerificationError extends LimitError {
  override name = 'DuplicateVerificationError'
}

export type VerificationsOptions = {
  spool: Spool
  chain: Chain
  engine: Verifier
  jobs: Jobs
  log: Logger
  /** How long a job waits for the spool to reach the contract's creation before it fails. */
  creationWaitMs?: number
  /** The most jobs pending at once, waiting for the spool or compiling. */
  maxPending?: number
}

/** Sourcify's word for compiled code that does not match the chain's, the default reason of a failed job. */
const FAIL = 'no_match'

/**
 * Verifications asked of the listener, for both APIs: the checks a request gets at once (the
 * code at the address, an earlier verification, the queue), then in the background the
 * creation input from the spool's creations, the engine's compile and match, and the record in
 * the spool, kept with the creation's block so it follows reorganisations.
 */
export function createVerifications(options: VerificationsOptions) {
  const { spool, chain, engine, jobs, log } = options
  const client = chain.publicClient
  const creationWaitMs = options.creationWaitMs ?? 30_000
  const maxPending = options.maxPending ?? 16
  let writer: VerificationWriter | null = null
  const write = () => (writer ??= spool.verifications())

  const codeAt = async (address: Address): Promise<Hex> => (await fromChain(() => client.getCode({ address }))) ?? '0x'

  /** The creation of `address` once the spool holds it; null when it does not within the wait. */
  const waitForCreation = async (address: Address) => {
    const key = blob(addressKey(address))
    const polled = await pollUntil(
      async () => await creationOf(spool.reader, key),
      (creation) => creation !== null,
      { timeoutMs: creationWaitMs, intervalMs: 250 },
    )
    return polled.value
  }

  const run = async (job: Job, request: VerificationRequest) => {
    const creation = await waitForCreation(request.address)
    if (!creation) {
      const head = await spoolHead(spool.reader)
      const held = head === null ? 'holds no block yet' : `holds the chain to block ${head}`
      return fail(
        job,
        `the spool has not reached the creation of ${request.address} yet (it follows the chain behind the node, and ${held}); try again once it has`,
        'onchain_creation_bytecode_not_available',
      )
    }
    if (request.creationTransactionHash && request.creationTransactionHash.toLowerCase() !== hex(creation.txHash)) {
      return fail(job, `${request.address} was created by ${hex(creation.txHash)}, not by ${request.creationTransactionHash}`, 'cannot_fetch_bytecode')
    }
    if (!creation.input) return fail(job, `the creation input of ${request.address} is not known: the node gave no call trace of its creating transaction`, 'onchain_creation_bytecode_not_available')
    const chainCode = await codeAt(request.address)
    if (chainCode === '0x') return fail(job, `Unable to locate ContractCode at ${request.address}`, 'contract_not_deployed')
    const result = await engine.verify({
      stdJsonInput: request.stdJsonInput,
      compilerVersion: request.compilerVersion,
      contractIdentifier: request.contractIdentifier,
      chainCode,
      creationInput: hex(creation.input),
    })
    if (!result.match) return fail(job, result.reason ?? 'the compiled code does not match the code on chain')
    const constructorArguments = (result.constructorArguments ?? '0x').slice(2).toLowerCase()
    const given = request.constructorArguments?.replace(/^0x/i, '').toLowerCase() ?? ''
    if (given !== '' && given !== constructorArguments) {
      return fail(job, `the constructor arguments given (${given.slice(0, 64)}) are not those of the creation (${constructorArguments.slice(0, 64)})`)
    }
    const earlier = await verifiedContract(spool.reader, request.address)
    if (earlier && !better(result.match, result.creationMatch, earlier)) {
      return fail(job, 'Contract source code already verified', 'already_verified')
    }
    const recorded = await write().record({
      address: request.address,
      blockNumber: creation.blockNumber,
      match: result.match,
      creationMatch: result.creationMatch,
      runtimeMatch: result.runtimeMatch,
      origin: request.origin,
      name: result.contractName,
      compilerVersion: result.compilerVersion,
      // The same-code rule's key as the contract book computes it for any address: immutables
      // and the trailing metadata masked (not the metadata of code the contract embeds).
      codeHash: maskedRuntimeHash(chainCode, { immutableReferences: result.immutableReferences }),
      details: {
        abi: result.abi,
        sources: result.sources,
        contractIdentifier: request.contractIdentifier,
        optimizer: result.optimizer,
        evmVersion: result.evmVersion,
        libraries: result.libraries,
        constructorArguments,
        licence: result.licence,
        stdJsonInput: request.stdJsonInput,
        immutableReferences: result.immutableReferences,
      },
    })
    if (!recorded) return fail(job, `the block of ${request.address}'s creation is no longer on the chain (a reorganisation took it back)`)
    jobs.finish(job, {
      state: 'pass',
      match: recorded.match,
      creationMatch: recorded.creationMatch,
      runtimeMatch: recorded.runtimeMatch,
      matchId: recorded.id,
      verifiedAt: recorded.verifiedAt,
      message: 'Pass - Verified',
    })
  }

  const fail = (job: Job, message: string, code = FAIL) => jobs.finish(job, { state: 'fail', code, message })

  const background = (job: Job, work: () => Promise<void>) => {
    work().catch((error: unknown) => {
      const code = failureCode(error)
      if (code === 'internal_error') log.warn({ service: 'etherscan', err: error, address: job.address }, 'verification failed')
      fail(job, code === 'internal_error' ? firstLine(error) : (error as Error).message, code)
    })
  }

  return {
    /**
     * Starts a verification and answers its job at once; throws what refuses it before any
     * compile (already verified, no code, a full queue, a verification of the address running).
     */
    async submit(request: VerificationRequest): Promise<Job> {
      const earlier = await verifiedContract(spool.reader, request.address)
      if (earlier && (request.origin === 'etherscan' || (earlier.creationMatch === 'exact_match' && earlier.runtimeMatch === 'exact_match'))) {
        throw new AlreadyVerifiedError(
          request.origin === 'etherscan' ? 'Contract source code already verified' : `Contract ${request.address} is already verified with runtimeMatch and creationMatch both being exact matches.`,
        )
      }
      if (request.origin === 'sourcify' && jobs.pendingFor('contract', request.address)) {
        throw new DuplicateVerificationError(`Contract ${request.address} is already being verified`)
      }
      if ((await codeAt(request.address)) === '0x') throw new NoContractCodeError(`Unable to locate ContractCode at ${request.address}`)
      if (jobs.pendingCount() >= maxPending || engine.isFull()) throw new VerificationQueueFullError()
      const job = jobs.start('contract', request.address)
      background(job, () => run(job, request))
      return job
    },

    /**
     * Records the implementation the proxy's slots name now (Etherscan's verifyproxycontract);
     * with `expected`, only when the chain names that one.
     */
    async submitProxy(address: Address, expected: Address | null): Promise<Job> {
      if ((await codeAt(address)) === '0x') throw new NoContractCodeError(`Unable to locate ContractCode at ${address}`)
      const job = jobs.start('proxy', address)
      background(job, async () => {
        const proxy = await detectProxy(chain, address)
        if (!proxy) return fail(job, 'A corresponding implementation contract was unfortunately not detected for the proxy address.')
        if (expected && expected.toLowerCase() !== proxy.implementation.toLowerCase()) {
          return fail(job, `The implementation contract at ${proxy.implementation} does not match the expected implementation ${expected}.`)
        }
        const head = await fromChain(() => client.getBlockNumber())
        const recorded = await write().recordProxy({ address, implementation: proxy.implementation, blockNumber: Number(head) })
        jobs.finish(job, {
          state: 'pass',
          match: 'exact_match',
          creationMatch: null,
          runtimeMatch: null,
          matchId: 0,
          verifiedAt: recorded.verifiedAt,
          message: `The proxy's (${address}) implementation contract is found at ${proxy.implementation} and is successfully updated.`,
        })
      })
      return job
    },

    close: () => writer?.close(),
  }
}

export type Verifications = ReturnType<typeof createVerifications>

const RANK: Record<MatchKind, number> = { match: 1, exact_match: 2 }

/** Whether a new result improves on an earlier verification (Sourcify keeps the better match only). */
function better(match: MatchKind, creationMatch: MatchKind | null, earlier: VerifiedContract): boolean {
  if (RANK[match] !== RANK[earlier.match]) return RANK[match] > RANK[earlier.match]
  return (creationMatch ? RANK[creationMatch] : 0) > (earlier.creationMatch ? RANK[earlier.creationMatch] : 0)
}

/** Sourcify's custom code for what stopped a job (the Etherscan API shows only the message). */
const SOURCIFY_CODES: Record<string, string> = {
  not_json: 'invalid_json',
  too_large: 'invalid_parameter',
  bad_input: 'invalid_parameter',
  contract_not_found: 'contract_not_found_in_compiler_output',
  unknown_compiler: 'unsupported_compiler_version',
  compile_error: 'compiler_error',
  compile_timeout: 'compiler_error',
}

function failureCode(error: unknown): string {
  if (error instanceof VerificationInputError) return SOURCIFY_CODES[error.code] ?? 'invalid_parameter'
  if (error instanceof VerificationQueueFullError) return 'too_many_requests'
  if (error instanceof CompilerFailedError) return 'compiler_error'
  if (error instanceof InvalidInputError) return 'invalid_parameter'
  return 'internal_error'
}
