/** Why a step of the follower failed at the node: it did not answer in time, could not be reached, or answered an error. */
export type RpcErrorKind = 'timeout' | 'unreachable' | 'error'

/** What the follower did since the last reading: each as it happened, for the metrics' counters and histograms. */
export type MeterReading = {
  /** Each answered request to the node: its time in milliseconds and the blocks it carried. */
  fetches: Array<{ ms: number; blocks: number }>
  /** Each run of blocks written in one transaction: its blocks and transactions. */
  batches: Array<{ blocks: number; txs: number }>
  /** Each rollback to a common ancestor: the blocks it dropped. */
  reorganisations: number[]
  rpcErrors: Record<RpcErrorKind, number>
}

/**
 * The follower's events as they happen, gathered in the writer's worker and handed to the main
 * thread now and then, where the metrics are kept: a worker posts plain data, and the
 * observations must reach the histograms one by one, not as the last figure of the health.
 */
export class SpoolMeter {
  private reading = SpoolMeter.empty()

  private static empty(): MeterReading {
    return { fetches: [], batches: [], reorganisations: [], rpcErrors: { timeout: 0, unreachable: 0, error: 0 } }
  }

  fetched(ms: number, blocks: number): void {
    this.reading.fetches.push({ ms, blocks })
  }

  wrote(blocks: number, txs: number): void {
    this.reading.batches.push({ blocks, txs })
  }

  reorganised(dropped: number): void {
    this.reading.reorganisations.push(dropped)
  }

  rpcError(kind: RpcErrorKind): void {
    this.reading.rpcErrors[kind]++
  }

  /** What happened since the last drain, or null when nothing did. */
  drain(): MeterReading | null {
    const reading = this.reading
    const { timeout, unreachable, error } = reading.rpcErrors
    if (reading.fetches.length + reading.batches.length + reading.reorganisations.length + timeout + unreachable + error === 0) return null
    this.reading = SpoolMeter.empty()
    return reading
  }
}
