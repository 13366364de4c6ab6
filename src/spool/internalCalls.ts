import type { CallFrame } from './traces.ts'

/** A nested call of a transaction as a list of internal transactions shows it; `traceId` is its path in the tree (`0`, `0_1`, ...). */
export type InternalCall = { frame: CallFrame; traceId: string }

const moves = (frame: CallFrame) => frame.type.startsWith('CREATE') || frame.type === 'SELFDESTRUCT' || (frame.value !== null && BigInt(frame.value) > 0n)

/**
 * The nested calls of a call tree that are internal transactions: those that move ether, every
 * creation and every self-destruct, depth first, in the order the transaction made them. The top
 * call is the transaction itself and is never one.
 */
export function internalCalls(root: CallFrame): InternalCall[] {
  const found: InternalCall[] = []
  const walk = (frame: CallFrame, path: number[]) => {
    frame.calls.forEach((call, index) => {
      const at = [...path, index]
      if (moves(call)) found.push({ frame: call, traceId: at.join('_') })
      walk(call, at)
    })
  }
  walk(root, [])
  return found
}

/** The addresses (lower-case hex) an internal call of the tree came from, went to or created. */
export function internalParties(root: CallFrame): Set<string> {
  const parties = new Set<string>()
  for (const { frame } of internalCalls(root)) {
    if (frame.from && frame.from !== '0x') parties.add(frame.from.toLowerCase())
    if (frame.to) parties.add(frame.to.toLowerCase())
  }
  return parties
}
