/**
 * Call traces, in one shape whatever the node speaks: a tree of calls, each
 * `{type, from, to, value, gas, gasUsed, input, output, error, calls}` with hex quantities, as
 * the call tracer of debug_traceBlockByNumber gives it. Nodes with the parity-style trace_block
 * (anvil among them, where it is far cheaper than re-executing the block) give flat lists with
 * trace addresses, which are folded into the same tree here.
 */
export type CallFrame = {
  type: string
  from: string
  to: string | null
  value: string | null
  gas: string | null
  gasUsed: string | null
  input: string
  output: string | null
  error: string | null
  calls: CallFrame[]
}

type ParityTrace = {
  type: 'call' | 'create' | 'suicide' | 'reward' | string
  action: { from?: string; to?: string; callType?: string; value?: string; gas?: string; input?: string; init?: string; address?: string; refundAddress?: string; balance?: string }
  result?: { gasUsed?: string; output?: string; address?: string; code?: string } | null
  error?: string
  traceAddress: number[]
  transactionHash: string | null
  transactionPosition: number | null
}

/** One call tree per transaction of the block, in transaction order. */
export function fromParity(traces: ParityTrace[], txHashes: string[]): CallFrame[] {
  const byTx = new Map<string, ParityTrace[]>()
  for (const trace of traces) {
    if (!trace.transactionHash) continue // block rewards belong to no transaction
    const key = trace.transactionHash.toLowerCase()
    if (!byTx.has(key)) byTx.set(key, [])
    byTx.get(key)!.push(trace)
  }
  return txHashes.map((hash) => {
    const list = byTx.get(hash.toLowerCase()) ?? []
    const frames = new Map<string, CallFrame>()
    let root: CallFrame | null = null
    // Parents come before children in trace-address order.
    for (const trace of [...list].sort((a, b) => compareAddress(a.traceAddress, b.traceAddress))) {
      const frame = toFrame(trace)
      frames.set(trace.traceAddress.join('.'), frame)
      if (trace.traceAddress.length === 0) root = frame
      else frames.get(trace.traceAddress.slice(0, -1).join('.'))?.calls.push(frame)
    }
    if (!root) throw new Error(`no trace for transaction ${hash}`)
    return root
  })
}

function toFrame(trace: ParityTrace): CallFrame {
  const { action, result } = trace
  if (trace.type === 'create') {
    return {
      type: 'CREATE',
      from: action.from ?? '0x',
      to: result?.address ?? null,
      value: action.value ?? null,
      gas: action.gas ?? null,
      gasUsed: result?.gasUsed ?? null,
      input: action.init ?? '0x',
      output: result?.code ?? null,
      error: trace.error ?? null,
      calls: [],
    }
  }
  if (trace.type === 'suicide') {
    return {
      type: 'SELFDESTRUCT',
      from: action.address ?? '0x',
      to: action.refundAddress ?? null,
      value: action.balance ?? null,
      gas: null,
      gasUsed: null,
      input: '0x',
      output: null,
      error: trace.error ?? null,
      calls: [],
    }
  }
  return {
    type: (action.callType ?? 'call').toUpperCase(),
    from: action.from ?? '0x',
    to: action.to ?? null,
    value: action.value ?? null,
    gas: action.gas ?? null,
    gasUsed: result?.gasUsed ?? null,
    input: action.input ?? '0x',
    output: returned(result?.output),
    error: trace.error ?? null,
    calls: [],
  }
}

/** No return data is null in both sources (the call tracer omits it, trace_block says 0x). */
const returned = (output: string | null | undefined) => (output && output !== '0x' ? output : null)

function compareAddress(a: number[], b: number[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    if (a[index] !== b[index]) return a[index]! - b[index]!
  }
  return a.length - b.length
}

/** A frame as the call tracer gives it: any field may be missing. */
export type GethFrame = Partial<Omit<CallFrame, 'calls'>> & { calls?: GethFrame[] }

/** The call tracer's own frames, with every field present. */
export function fromCallTracer(frame: GethFrame): CallFrame {
  return {
    type: frame.type ?? 'CALL',
    from: frame.from ?? '0x',
    to: frame.to ?? null,
    value: frame.value ?? null,
    gas: frame.gas ?? null,
    gasUsed: frame.gasUsed ?? null,
    input: frame.input ?? '0x',
    output: returned(frame.output),
    error: frame.error ?? null,
    calls: (frame.calls ?? []).map(fromCallTracer),
  }
}
