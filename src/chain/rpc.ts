import { NodeUnreachableError, StackError } from '../errors.ts'

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

export type Rpc = {
  url: string
  call: <T>(method: string, params?: unknown[]) => Promise<T>
  batch: (calls: RpcCall[]) => Promise<RpcResult[]>
}

export function createRpc(url: string, { timeoutMs = 30_000 } = {}): Rpc {
  let nextId = 1

  const post = async (body: unknown): Promise<unknown> => {
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new NodeUnreachableError(`the node at ${url} cannot be reached: ${(error as Error).message}`)
    }
    if (!response.ok) throw new NodeUnreachableError(`the node at ${url} answered HTTP ${response.status}`)
    try {
      return await response.json()
    } catch {
      throw new NodeUnreachableError(`the node at ${url} answered something that is not JSON`)
    }
  }

  const batch = async (calls: RpcCall[]): Promise<RpcResult[]> => {
    if (calls.length === 0) return []
    const first = nextId
    nextId += calls.length
    const answers = await post(calls.map((call, index) => ({ jsonrpc: '2.0', id: first + index, method: call.method, params: call.params })))
    if (!Array.isArray(answers)) {
      const error = (answers as { error?: { code: number; message: string } })?.error
      throw new NodeUnreachableError(`the node refused the batch: ${error?.message ?? 'not an array'}`)
    }
    const byId = new Map<number, { result?: unknown; error?: { code: number; message: string } }>()
    for (const answer of answers) byId.set(answer.id, answer)
    return calls.map((call, index) => {
      const answer = byId.get(first + index)
      if (!answer) return { ok: false, error: new RpcError(-32603, 'no answer in the batch', call.method) }
      if (answer.error) return { ok: false, error: new RpcError(answer.error.code, answer.error.message, call.method) }
      return { ok: true, value: answer.result }
    })
  }

  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const [result] = await batch([{ method, params }])
    if (!result!.ok) throw result!.error
    return result!.value as T
  }

  return { url, call, batch }
}
