import { Elysia } from 'elysia'
import type { Address, Hex } from 'viem'
import { InvalidInputError, NodeUnreachableError, StackError } from '../../errors.ts'
import { parseAddressAnyCase } from '../../eth/address.ts'
import { parseHash } from '../../eth/bytes.ts'
import { readBodyBytes, utf8 } from '../../http/body.ts'
import { ALWAYS_HEADERS, HttpError, JSON_TYPE } from '../../http/errors.ts'
import type { Logger } from '../../log.ts'
import type { SpoolDb } from '../../spool/engine.ts'
import { verifiedContract, type MatchKind } from '../../spool/verified.ts'
import { ETHERSCAN_MAX_BODY } from '../fields.ts'
import type { Job, Jobs } from '../jobs.ts'
import { checkedInput } from '../sourceInput.ts'
import { VerificationQueueFullError } from '../../verify/errors.ts'
import { AlreadyVerifiedError, DuplicateVerificationError, NoContractCodeError, type Verifications } from '../verifications.ts'

/** An error of Sourcify's API: its status and its `{customCode, message, errorId}` body. */
export class SourcifyError extends StackError {
  override name = 'SourcifyError'
  constructor(
    readonly status: number,
    readonly customCode: string,
    message: string,
  ) {
    super(message)
  }
}

/** Sourcify's error body; every error has an id of its own, as Sourcify's do. */
export function sourcifyErrorFields(customCode: string, message: string, errorId: string = crypto.randomUUID()) {
  return { customCode, message, errorId }
}

/** Sourcify's word for an error the listener's conventions answer (a body past the cap, the client's minute). */
export function sourcifyCodeOf(status: number): string {
  return status === 413 ? 'payload_too_large' : status === 429 ? 'too_many_requests' : status === 404 ? 'route_not_found' : status >= 500 ? 'internal_error' : 'invalid_parameter'
}

export type SourcifyParts = { chainId: number; reader: SpoolDb; jobs: Jobs; verifications: Verifications; log: Logger }

/**
 * Sourcify's API v2 under `/sourcify/` (docs/etherscan.md): verification from a standard JSON
 * input, its job, and the lookup of a verified contract, with Sourcify's shapes and statuses.
 * Only this chain is served: another chain id is Sourcify's `unsupported_chain`.
 */
export function sourcifyRoutes({ chainId, reader, jobs, verifications, log }: SourcifyParts) {
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { ...ALWAYS_HEADERS, 'content-type': JSON_TYPE } })
  const answer = async (work: () => Promise<Response> | Response): Promise<Response> => {
    try {
      return await work()
    } catch (error) {
      const refusal = asSourcifyError(error)
      if (refusal.status === 500) log.error({ service: 'etherscan', err: error }, 'unhandled error')
      return json(refusal.status, sourcifyErrorFields(refusal.customCode, refusal.message))
    }
  }
  const chainOf = (text: string) => {
    if (!/^\d{1,20}$/.test(text) || Number(text) !== chainId) throw new SourcifyError(400, 'unsupported_chain', `Chain ${text.slice(0, 32)} not found`)
    return String(chainId)
  }
  const addressOf = (text: string): Address => {
    const address = parseAddressAnyCase(text)
    if (!address) throw new SourcifyError(400, 'invalid_parameter', `Invalid address: ${text.slice(0, 64)}`)
    return address
  }

  return new Elysia({ name: 'sourcify' })
    .post('/sourcify/v2/verify/:chainId/:address', ({ params, request }) =>
      answer(async () => {
        chainOf(params.chainId)
        const address = addressOf(params.address)
        const body = await jsonBody(request)
        if (body.stdJsonInput === undefined) throw new SourcifyError(400, 'invalid_parameter', 'Standard JSON input is required.')
        if (typeof body.contractIdentifier !== 'string' || !body.contractIdentifier.includes(':')) {
          throw new SourcifyError(400, 'invalid_parameter', "The contractIdentifier must consist of the file path and the contract name separated by a ':'.")
        }
        if (typeof body.compilerVersion !== 'string') throw new SourcifyError(400, 'invalid_parameter', 'Compiler version is required.')
        const input = checkedInput({ stdJsonInput: body.stdJsonInput as Record<string, unknown>, compilerVersion: body.compilerVersion, contractIdentifier: body.contractIdentifier })
        let creationTransactionHash: Hex | null = null
        if (body.creationTransactionHash !== undefined && body.creationTransactionHash !== null) {
          creationTransactionHash = parseHash(body.creationTransactionHash)
          if (!creationTransactionHash) throw new SourcifyError(400, 'invalid_parameter', 'creationTransactionHash must be a 32-byte hex hash')
        }
        const job = await verifications.submit({
          address,
          ...input,
          constructorArguments: null,
          creationTransactionHash,
          origin: 'sourcify',
        })
        return json(202, { verificationId: job.id })
      }),
    )
    .get('/sourcify/v2/verify/:verificationId', ({ params }) =>
      answer(() => {
        const job = jobs.get(params.verificationId)
        if (!job || job.kind !== 'contract') throw new SourcifyError(404, 'job_not_found', `No verification job found for id ${params.verificationId.slice(0, 64)}`)
        return json(200, jobAnswer(job, String(chainId)))
      }),
    )
    .get('/sourcify/v2/contract/:chainId/:address', ({ params }) =>
      answer(async () => {
        const chain = chainOf(params.chainId)
        const address = addressOf(params.address)
        const verification = await verifiedContract(reader, address)
        if (!verification) {
          // Sourcify answers an unverified contract with its nulls; the error's keys say why.
          return json(404, {
            match: null,
            creationMatch: null,
            runtimeMatch: null,
            chainId: chain,
            address,
            ...sourcifyErrorFields('not_found', `Contract ${address} on chain ${chain} not found or not verified`),
          })
        }
        return json(200, {
          ...matches(verification.match, verification.creationMatch, verification.runtimeMatch),
          chainId: chain,
          address: verification.address,
          verifiedAt: new Date(verification.verifiedAt).toISOString(),
          matchId: String(verification.id),
        })
      }),
    )
    .all('/sourcify/*', () =>
      answer(() => {
        throw new SourcifyError(404, 'route_not_found', 'The requested route of the Sourcify API does not exist')
      }),
    )
}

/** A job as Sourcify's GET /v2/verify/{verificationId} answers it. */
function jobAnswer(job: Job, chainId: string) {
  const outcome = job.outcome
  const passed = outcome?.state === 'pass' ? outcome : null
  return {
    isJobCompleted: outcome !== null,
    verificationId: job.id,
    jobStartTime: new Date(job.startedAt).toISOString(),
    ...(job.finishedAt === null ? {} : { jobFinishTime: new Date(job.finishedAt).toISOString() }),
    contract: {
      ...matches(passed?.match ?? null, passed?.creationMatch ?? null, passed?.runtimeMatch ?? null),
      chainId,
      address: job.address,
      ...(passed ? { verifiedAt: new Date(passed.verifiedAt).toISOString(), matchId: String(passed.matchId) } : {}),
    },
    ...(outcome?.state === 'fail' ? { error: sourcifyErrorFields(outcome.code, outcome.message, outcome.errorId) } : {}),
  }
}

function matches(match: MatchKind | null, creationMatch: MatchKind | null, runtimeMatch: MatchKind | null) {
  return { match, creationMatch, runtimeMatch }
}

/** The request's JSON object body, read no further than the listener's cap. */
async function jsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = utf8(await readBodyBytes(request, ETHERSCAN_MAX_BODY))
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    throw new SourcifyError(400, 'invalid_json', `The body is not JSON: ${(error as Error).message.slice(0, 200)}`)
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SourcifyError(400, 'invalid_json', 'The body must be a JSON object')
  return body as Record<string, unknown>
}

/** Any error of a Sourcify route as Sourcify's status and custom code. */
function asSourcifyError(error: unknown): SourcifyError {
  if (error instanceof SourcifyError) return error
  if (error instanceof AlreadyVerifiedError) return new SourcifyError(409, 'already_verified', error.message)
  if (error instanceof DuplicateVerificationError) return new SourcifyError(429, 'duplicate_verification_request', error.message)
  if (error instanceof VerificationQueueFullError) return new SourcifyError(429, 'too_many_requests', error.message)
  if (error instanceof NoContractCodeError) return new SourcifyError(404, 'contract_not_deployed', error.message)
  if (error instanceof NodeUnreachableError) return new SourcifyError(502, 'failed_to_get_bytecode', "The chain's node cannot be reached")
  if (error instanceof HttpError) return new SourcifyError(error.status, sourcifyCodeOf(error.status), error.message)
  if (error instanceof InvalidInputError) return new SourcifyError(400, 'invalid_parameter', error.message)
  return new SourcifyError(500, 'internal_error', 'The server encountered an unexpected error.')
}
