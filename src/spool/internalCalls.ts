import type { Database } from 'bun:sqlite'
import { blob, hex } from '../eth/bytes.ts'
import { unpackTrace, type CallFrame, type TxCall } from './traces.ts'

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

/** The internal calls of the tree that `address` (any case) made, received or created. */
export function internalCallsOf(root: CallFrame, address: string): InternalCall[] {
  const wanted = address.toLowerCase()
  return internalCalls(root).filter(({ frame }) => frame.from.toLowerCase() === wanted || (frame.to ?? '').toLowerCase() === wanted)
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

type StoredTx = { id: number; from_addr: Uint8Array; to_addr: Uint8Array | null; value: string; input: Uint8Array; trace: string }

/**
 * Fills internal_calls for a spool that held traces before it kept it: only the call trees with
 * nested calls are read (a packed tree lists them under `"c":[`, a tree stored whole under
 * `"calls":[{`), which are the fewer.
 */
export function backfillInternalCalls(db: Database): void {
  const insert = db.prepare('INSERT OR IGNORE INTO internal_calls (address, tx_id) VALUES (?, ?)')
  const candidates = db.query<StoredTx, []>(
    `SELECT t.id, t.from_addr, t.to_addr, t.value, t.input, r.trace
     FROM traces r JOIN txs t ON t.id = r.tx_id
     WHERE instr(r.trace, '"c":[') > 0 OR instr(r.trace, '"calls":[{') > 0`,
  )
  for (const row of candidates.iterate()) {
    const call: TxCall = { from: hex(row.from_addr), to: hex(row.to_addr), value: `0x${BigInt(row.value).toString(16)}`, input: hex(row.input) }
    for (const party of internalParties(unpackTrace(row.trace, call))) insert.run(blob(party), row.id)
  }
}
