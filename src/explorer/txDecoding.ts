import type { Abi, Hex } from 'viem'
import { decodeInput, decodeOutput, methodName, withAlso, type DecodeWith } from '../decode/decode.ts'
import { decodeRevert, type RevertReason } from '../decode/revert.ts'
import { checksumOrNull } from '../eth/address.ts'
import { hex } from '../eth/bytes.ts'
import { decimal, quantityOrNull } from '../eth/quantity.ts'
import type { CallFrame, Transaction } from '../spool/read.ts'
import { traceAddress } from './format.ts'
import type { LiveNode } from './node.ts'
import type { RegistryView } from './registryView.ts'

/** Every frame of a call tree, parents first. */
export function framesOf(root: CallFrame): CallFrame[] {
  const all: CallFrame[] = []
  const walk = (frame: CallFrame) => {
    all.push(frame)
    frame.calls.forEach(walk)
  }
  walk(root)
  return all
}

/** Frames that ran code with calldata: a call, not a creation (whose input is code) or a self-destruct. */
const isCall = (frame: CallFrame) => !frame.type.startsWith('CREATE') && frame.type !== 'SELFDESTRUCT'

/** The distinct ABIs among `usings`: a revert may bubble up from any contract the transaction reached. */
export function abisOf(usings: DecodeWith[]): Abi[] {
  return [...new Set(usings.flatMap((using) => using.abis))]
}

/**
 * The call tree as stored, with amounts as decimal strings and addresses checksummed, each frame
 * decoded by its target's ABI (or the table): `decoded` its input, `decodedOutput` the values it
 * returned, `revertReason` why it failed. A failed frame's errors are named by every ABI the
 * transaction reached, since a revert bubbles up unchanged from where it was raised.
 */
export function decodedTrace(root: CallFrame, registry: RegistryView, decoders: (address: string | null) => DecodeWith, reached: Abi[]) {
  const frame = (call: CallFrame): unknown => {
    const using = decoders(call.to)
    const input = call.input as Hex
    const output = call.output as Hex | null
    const called = isCall(call)
    return {
      type: call.type,
      from: traceAddress(call.from),
      to: traceAddress(call.to),
      toLabel: registry.labelName(call.to),
      value: decimal(call.value),
      gas: quantityOrNull(call.gas),
      gasUsed: quantityOrNull(call.gasUsed),
      method: called && input.length >= 10 ? methodName(input.slice(0, 10) as Hex, using) : null,
      input,
      output,
      error: call.error,
      decoded: called ? decodeInput(input, { using }) : null,
      decodedOutput: called && call.error === null ? decodeOutput(input, output, { using }) : null,
      revertReason: call.error === null ? null : decodeRevert(output, withAlso(using, reached), call.error),
      calls: call.calls.map(frame),
    }
  }
  return frame(root)
}

/** A transaction's revert reason and where it was read: its stored trace, or a replay of the call. */
export type TxRevertReason = RevertReason & { source: 'trace' | 'replay' }

/**
 * Why a failed transaction failed. With its trace, the top frame's revert data. Without one
 * (a node that gives no traces), the call is replayed once with eth_call on the state before its
 * block, within the node's time limit: a replay runs without the transactions before it in the
 * block, so it says `source: 'replay'`, and null when the replay does not fail (or the node is
 * away), since then nothing is known of the reason.
 */
export async function txRevertReason(tx: Transaction, trace: CallFrame | null, node: LiveNode, using: DecodeWith, reached: Abi[]): Promise<TxRevertReason | null> {
  if (tx.status === 1) return null
  if (trace) return { ...decodeRevert(trace.output as Hex | null, withAlso(using, reached), trace.error), source: 'trace' }
  if (tx.blockNumber === 0) return null
  const call = {
    from: checksumOrNull(tx.from),
    ...(tx.to ? { to: checksumOrNull(tx.to) } : {}),
    value: `0x${BigInt(tx.value).toString(16)}`,
    gas: `0x${tx.gas.toString(16)}`,
    data: hex(tx.input),
  }
  const results = await node.batch([{ method: 'eth_call', params: [call, `0x${(tx.blockNumber - 1).toString(16)}`] }])
  const result = results?.[0]
  if (!result || result.ok) return null
  const { data, message } = result.error
  const revertData = typeof data === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(data) ? (data as Hex) : null
  if (revertData === null && !/revert/i.test(message)) return null // not a revert the replay saw (the node refused the call)
  return { ...decodeRevert(revertData, withAlso(using, reached), message), source: 'replay' }
}
