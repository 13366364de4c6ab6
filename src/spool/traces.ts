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

/** What a transaction says of its own top call: a stored tree leaves out what matches it. */
export type TxCall = { from: string; to: string | null; value: string; input: string }

/**
 * A frame as the spool stores it: short keys, and only what cannot be taken from elsewhere. A
 * null field, an input of `0x` and no calls are left out everywhere; the top frame's from, to,
 * value and input are left out where they are the transaction's own (a plain transfer keeps only
 * its type and gas, a contract's deployment does not store its code twice). A key that is there,
 * null included, says what the frame holds.
 */
type PackedFrame = { t: string; f?: string; o?: string | null; v?: string | null; g?: string; u?: string; i?: string; r?: string; e?: string; c?: PackedFrame[] }

const same = (a: string | null, b: string | null) => (a === null || b === null ? a === b : a.toLowerCase() === b.toLowerCase())

/** A call tree as the text the spool stores; `unpackTrace` gives the same tree back with `tx`. */
export function packTrace(frame: CallFrame, tx: TxCall): string {
  return JSON.stringify(pack(frame, tx))
}

function pack(frame: CallFrame, top: TxCall | null): PackedFrame {
  const packed: PackedFrame = { t: frame.type }
  if (!top || !same(frame.from, top.from)) packed.f = frame.from
  if (top ? !same(frame.to, top.to) : frame.to !== null) packed.o = frame.to
  if (top ? !same(frame.value, top.value) : frame.value !== null) packed.v = frame.value
  if (frame.gas !== null) packed.g = frame.gas
  if (frame.gasUsed !== null) packed.u = frame.gasUsed
  if (top ? !same(frame.input, top.input) : frame.input !== '0x') packed.i = frame.input
  if (frame.output !== null) packed.r = frame.output
  if (frame.error !== null) packed.e = frame.error
  if (frame.calls.length > 0) packed.c = frame.calls.map((call) => pack(call, null))
  return packed
}

/** A stored call tree, whole again; `tx` fills in what the top frame left out. Trees stored whole (before packing) come back as they were. */
export function unpackTrace(text: string, tx: TxCall): CallFrame {
  const stored = JSON.parse(text) as PackedFrame | CallFrame
  return 'type' in stored ? stored : unpack(stored, tx)
}

function unpack(packed: PackedFrame, top: TxCall | null): CallFrame {
  const field = <K extends 'f' | 'o' | 'v' | 'i'>(key: K, fromTx: string | null, otherwise: string | null) =>
    key in packed ? (packed[key] ?? null) : top ? fromTx : otherwise
  return {
    type: packed.t,
    from: field('f', top?.from ?? null, null) ?? '0x',
    to: field('o', top?.to ?? null, null),
    value: field('v', top?.value ?? null, null),
    gas: packed.g ?? null,
    gasUsed: packed.u ?? null,
    input: field('i', top?.input ?? null, '0x') ?? '0x',
    output: packed.r ?? null,
    error: packed.e ?? null,
    calls: (packed.c ?? []).map((call) => unpack(call, null)),
  }
}
