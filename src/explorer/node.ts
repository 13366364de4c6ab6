import { decodeFunctionResult, encodeFunctionData, type Abi, type Address, type Hex } from 'viem'
import { createRpc, type Rpc, type RpcCall, type RpcResult } from '../chain/rpc.ts'
import { NodeOutage } from '../chain/outage.ts'
import { NodeUnreachableError } from '../errors.ts'

/**
 * The live parts of the explorer's answers (docs/explorer.md): balances,
 * nonces, code, contract probes and mini-blocks the spool lacks. Each request makes one
 * JSON-RPC batch with a short timeout. When the node cannot be reached the batch answers null and
 * the route serves the spool's part with those fields null; after a failure, requests skip the
 * node for a short while (NodeOutage) rather than each waiting out the timeout, while the stats
 * task (which asks every second with `force`) notices when it is back.
 */
export class LiveNode {
  private readonly rpc: Rpc
  private readonly outage = new NodeOutage()
  /** Whether the last read reached the node; null before the first. */
  reachable: boolean | null = null

  constructor(url: string, timeoutMs: number) {
    this.rpc = createRpc(url, { timeoutMs })
  }

  async batch(calls: RpcCall[], { force = false } = {}): Promise<RpcResult[] | null> {
    if (calls.length === 0) return []
    if (!force && this.outage.down) return null
    try {
      const results = await this.rpc.batch(calls)
      this.reachable = true
      this.outage.reached()
      return results
    } catch (error) {
      if (!(error instanceof NodeUnreachableError)) throw error
      this.reachable = false
      this.outage.failed()
      return null
    }
  }
}

/** The value of one answer of a batch, or null when the node refused that call. */
export function valueOf<T>(results: RpcResult[] | null, index: number): T | null {
  const result = results?.[index]
  return result?.ok ? ((result.value ?? null) as T | null) : null
}

/** An eth_call of a view function at the latest block. */
export function viewCall(to: Address, abi: Abi, functionName: string, args: readonly unknown[] = []): RpcCall {
  return { method: 'eth_call', params: [{ to, data: encodeFunctionData({ abi, functionName, args }) }, 'latest'] }
}

/** The decoded return of a view call, or null when it reverted, returned nothing or does not decode. */
export function viewResult<T>(results: RpcResult[] | null, index: number, abi: Abi, functionName: string): T | null {
  const data = valueOf<Hex>(results, index)
  if (!data || data === '0x') return null
  try {
    return decodeFunctionResult({ abi, functionName, data }) as T
  } catch {
    return null
  }
}
