import { NodeTimeoutError, NodeUnreachableError, StackError } from '../errors.ts'

/**
 * A bare JSON-RPC client for bulk reads (the spool's backfill): one HTTP request carries a whole
 * batch of calls, and each call's answer or error comes back separately, so a node without one
 * method (say debug_traceBlockByNumber) does not fail the batch.
 */

export type RpcCall = { method: string; params: unknown[] }

/** The node answered the call with a JSON-RPC error. */
export class RpcError extends StackError {
  override name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly method: string,
  ) {
    super(`${method}: ${message} (${code})`)
  }

  /** The node does not implement the method (or refuses it), as opposed to failing one call. */
  get isUnsupported(): boolean {
    return this.code === -32601 || this.code === -32004 || /not (found|supported|available)|does not exist|unsupported/i.test(this.message)
  }
}

export type RpcResult = { ok: true; value: unknown } | { ok: false; error: RpcError }

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
    const timedOut = () => new NodeTimeoutError(`the node at ${url} did not answer within ${timeoutMs / 1000} s`)
    let response: Response
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal })
    } catch (error) {
      if (signal.aborted) throw timedOut()
      throw new NodeUnreachableError(`the node at ${url} cannot be reached: ${(error as Error).message}`)
    }
    if (!response.ok) throw new NodeUnreachableError(`the node at ${url} answered HTTP ${response.status}`)
    // Parsed from the bytes as they come (no string copy of a large answer); its size from the header.
    const length = Number(response.headers.get('content-length') ?? Number.NaN)
    try {
      const answer: unknown = await response.json()
      return { answer, bytes: Number.isFinite(length) ? length : JSON.stringify(answer).length }
    } catch (error) {
      if (signal.aborted) throw timedOut()
      if (error instanceof SyntaxError) throw new NodeUnreachableError(`the node at ${url} answered something that is not JSON`)
      throw new NodeUnreachableError(`the node at ${url} broke off its answer: ${(error as Error).message}`)
    }
  }

  const batch = async (calls: RpcCall[]): Promise<RpcResult[]> => (await sizedBatch(calls)).results

  const sizedBatch = async (calls: RpcCall[]): Promise<SizedResults> => {
    if (calls.length === 0) return { results: [], bytes: 0 }
    const first = nextId
    nextId += calls.length
    const { answer: answers, bytes } = await post(calls.map((call, index) => ({ jsonrpc: '2.0', id: first + index, method: call.method, params: call.params })))
    if (!Array.isArray(answers)) {
      const error = (answers as { error?: { code: number; message: string } })?.error
      throw new NodeUnreachableError(`the node refused the batch: ${error?.message ?? 'not an array'}`)
    }
    const byId = new Map<number, { result?: unknown; error?: { code: number; message: string } }>()
    for (const answer of answers) byId.set(answer.id, answer)
    const results = calls.map((call, index): RpcResult => {
      const answer = byId.get(first + index)
      if (!answer) return { ok: false, error: new RpcError(-32603, 'no answer in the batch', call.method) }
      if (answer.error) return { ok: false, error: new RpcError(answer.error.code, answer.error.message, call.method) }
      return { ok: true, value: answer.result }
    })
    return { results, bytes }
  }

  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const [result] = await batch([{ method, params }])
    if (!result!.ok) throw result!.error
    return result!.value as T
  }

  return { url, call, batch, sizedBatch }
}
