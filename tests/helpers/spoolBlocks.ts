import type { Database } from 'bun:sqlite'
import type { Hex } from 'viem'
import type { BlockBundle } from '../../src/spool/fetchBlocks.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { writeBatch } from '../../src/spool/store.ts'
import type { CallFrame } from '../../src/spool/traces.ts'

// Small synthetic chains written through the spool's own write path, for the tests of what is
// derived from blocks, transactions and call trees without a node.

/** A transaction: from, to (null for a creation), the contract it created, its call tree (a plain call by default), its input, whether it reverted, its logs. */
export type SyntheticTx = { from: Hex; to: Hex | null; created?: Hex; trace?: Partial<CallFrame>; input?: Hex; reverted?: boolean; logs?: SyntheticLog[] }
/** A log a transaction emitted. */
export type SyntheticLog = { address: Hex; topics: Hex[]; data: Hex }

const q = (value: number): Hex => `0x${value.toString(16)}`
const word = (digits: string): Hex => `0x${digits.padStart(64, '0')}`

/** A call frame from `from` to `to`, with `more` (a type, inner calls, an error) over it. */
export function callFrame(from: Hex, to: Hex | null, more: Partial<CallFrame> = {}): CallFrame {
  return { type: 'CALL', from, to, value: '0x0', gas: null, gasUsed: null, input: '0x', output: null, error: null, calls: [], ...more }
}

/**
 * Block `number` with `txs` (21,000 gas each) as the node gives it to the spool; `salt` makes
 * another block of that height (its hash and its transactions' hashes differ).
 */
export function syntheticBundle(number: number, txs: SyntheticTx[] = [], salt = 0): BlockBundle {
  const txHash = (index: number) => word(`${String(salt).padStart(2, '0')}${String(number).padStart(30, '0')}${String(index).padStart(32, '0')}`)
  return {
    block: {
      number: q(number),
      hash: word(`${String(salt).padStart(2, '0')}${String(number).padStart(62, '0')}`),
      parentHash: word('0'),
      timestamp: q(1000 + number * 2),
      gasUsed: q(21_000 * txs.length),
      gasLimit: q(30_000_000),
      transactions: txs.map((tx, index) => ({ hash: txHash(index), from: tx.from, to: tx.to, value: '0x0', nonce: '0x0', type: '0x2', gas: q(21_000), input: tx.input ?? '0x', transactionIndex: q(index) })),
    },
    receipts: txs.map((tx, index) => ({ transactionHash: txHash(index), transactionIndex: q(index), status: tx.reverted ? '0x0' : '0x1', gasUsed: q(21_000), contractAddress: tx.created ?? null, logs: (tx.logs ?? []).map((log, at) => ({ ...log, logIndex: q(at), transactionIndex: q(index), transactionHash: txHash(index) })) })),
    traces: txs.map((tx) => callFrame(tx.from, tx.to, tx.trace)),
  }
}

/** Writes block `number` with `txs` into the spool (syntheticBundle) and moves its cursor there. */
export async function writeBlock(db: Database, number: number, txs: SyntheticTx[] = [], salt = 0): Promise<void> {
  await writeBatch(sqliteWriter(db), [syntheticBundle(number, txs, salt)])
}
