import { NodeTimeoutError, NodeUnreachableError, StackError } from '../errors.ts'

/**
 * The stack's one JSON-RPC client beside viem: bulk reads (the spool's backfill), where one HTTP
 * request carries a whole batch of calls and each call's answer or error comes back separately,
 * so a node without one method (say debug_traceBlockByNumber) does not fail the batch. The
 * node's WebSocket (rpcSocket.ts) speaks through the same messages and answers.
 */

export type RpcCall = { method: string; params: unknown[] }

/** A call as it goes on the wire. */
export const rpcMessage = (id: number, { method, params }: RpcCall) => ({ jsonrpc: '2.0', id, method, params })

/** The node answered the call with a JSON-RPC error; `data` is the error's own (an eth_call's revert data). */
export class RpcError extends StackError {
  override name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly method: string,
    readonly data: unknown = undefined,
  ) {
    super(`${method}: ${message} (${code})`)
  }
}

export type RpcResult = { ok: true; value: unknown } | { ok: false; error: RpcError }

/** One JSON-RPC answer object as the node sends it. */
export type RpcAnswer = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }

/** The result of a call from the node's answer to it (none: the node left it out of the batch). */
export function readAnswer(method: string, answer: RpcAnswer | undefined): RpcResult {
  if (!answer) return { ok: false, error: new RpcError(-32603, 'no answer in the batch', method) }
  if (answer.error) return { ok: false, error: new RpcError(answer.error.code, answer.error.message, method, answer.error.data) }
  return { ok: true, value: answer.result }
}

/**
 * What an answer says: a value; nothing (null: the node has no such block or transaction, not
 * yet or no longer); that the node lacks the method; or that the call failed.
 */
export type AnswerKind = 'value' | 'absent' | 'unsupported' | 'failed'

export function answerKind(result: RpcResult): AnswerKind {
  if (result.ok) return result.value === null || result.value === undefined ? 'absent' : 'value'
  const { code, message } = result.error
  return code === METHOD_NOT_FOUND || code === METHOD_NOT_SUPPORTED || LACKS_METHOD.test(message) || LACKS_TRACER.test(message) ? 'unsupported' : 'failed'
}

/** JSON-RPC 2.0's "method not found", and EIP-1474's "method not supported" (Hardhat's). */
const METHOD_NOT_FOUND = -32601
const METHOD_NOT_SUPPORTED = -32004
/**
 * The same said in words, by nodes and providers that send another code: "Method X is not
 * supported", "the method X does not exist/is not available", "unsupported method". The word
 * "method" must be there: "Resource not found" or "header not found" is a block the node lacks.
 */
const LACKS_METHOD = /\bmethod\b.*\b(not (found|supported|available|implemented|enabled|allowed)|does not exist|unsupported)|\b(unsupported|unknown) method\b/i
/** The method is there but not the tracer asked for (Hardhat has only its default tracer). */
const LACKS_TRACER = /\btracer\b.*\b(not (found|supported|available)|unsupported)|only supports the default tracer/i

/** A batch's answers, with the size of the answer in bytes. */
export type SizedResults = { results: RpcResult[]; bytes: number }

export type Rpc = {
  url: string
  call: <T>(method: string, params?: unknown[]) => Promise<T>
  batch: (calls: RpcCall[]) => Promise<RpcResult[]>
  /** A batch with its answer's size. */
  sizedBatch: (calls: RpcCall[]) => Promise<SizedResults>
}

export function createRpc(url: string, { timeoutMs = 30_000 } = {}): Rpc {
  let nextId = 1

  const post = async (body: unknown): Promise<{ answer: unknown; bytes: number }> => {
    const signal = AbortSignal.timeout(timeoutMs)
    const timedOut = (cause: unknown) => new NodeTimeoutError(`the node at ${url} did not answer within ${timeoutMs / 1000} s`, { cause })
    let response: Response
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal })
    } catch (error) {
      if (signal.aborted) throw timedOut(error)
      throw new NodeUnreachableError(`the node at ${url} cannot be reached: ${(error as Error).message}`, { cause: error })
    }
    if (!response.ok) throw new NodeUnreachableError(`the node at ${url} answered HTTP ${response.status}`)
    // Parsed from the bytes as they come (no string copy of a large answer); its size from the header.
    const length = Number(response.headers.get('content-length') ?? Number.NaN)
    try {
      const answer: unknown = await response.json()
      return { answer, bytes: Number.isFinite(length) ? length : JSON.stringify(answer).length }
    } catch (error) {
      if (signal.aborted) throw timedOut(error)
      if (error instanceof SyntaxError) throw new NodeUnreachableError(`the node at ${url} answered something that is not JSON`, { cause: error })
      throw new NodeUnreachableError(`the node at ${url} broke off its answer: ${(error as Error).message}`, { cause: error })
    }
  }

  const batch = async (calls: RpcCall[]): Promise<RpcResult[]> => (await sizedBatch(calls)).results

  const sizedBatch = async (calls: RpcCall[]): Promise<SizedResults> => {
    if (calls.length === 0) return { results: [], bytes: 0 }
    const first = nextId
    nextId += calls.length
    const { answer: answers, bytes } = await post(calls.map((call, index) => rpcMessage(first + index, call)))
    if (!Array.isArray(answers)) {
      const error = (answers as { error?: { code: number; message: string; data?: unknown } })?.error
      throw new NodeUnreachableError(`the node refused the batch: ${error?.message ?? 'not an array'}`)
    }
    const byId = new Map<number, RpcAnswer>()
    for (const answer of answers) byId.set(answer.id, answer)
    const results = calls.map((call, index) => readAnswer(call.method, byId.get(first + index)))
    return { results, bytes }
  }

  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const [result] = await batch([{ method, params }])
    if (!result!.ok) throw result!.error
    return result!.value as T
  }

  return { url, call, batch, sizedBatch }
}
