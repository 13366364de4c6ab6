import type { Database } from 'bun:sqlite'
import { parseAddressAnyCase } from '../eth/address.ts'
import { blob, hex } from '../eth/bytes.ts'
import { unpackTrace, type CallFrame, type TxCall } from './traces.ts'

// Every contract creation the chain holds, by the address it made: a transaction's own (its
// receipt's contract address) and every CREATE or CREATE2 frame of its call tree that succeeded.
// A creation frame that failed made no contract, nor did one inside a frame that failed later
// (its state was undone with the frame), nor anything of a reverted transaction. On a node that
// gives no traces only transactions' own creations are known.

/** A contract made inside a transaction's call tree: who made it, and the frame's path from the top call ("0.2.1" is the top call's first call's third call). */
export type FrameCreation = { address: string; creator: string; frame: string }

const CREATES = new Set(['CREATE', 'CREATE2'])

/** The contracts the calls below a transaction's top call made, in execution order. */
export function frameCreations(top: CallFrame): FrameCreation[] {
  const found: FrameCreation[] = []
  const walk = (frame: CallFrame, path: string) => {
    if (frame.error !== null) return
    if (path !== '' && CREATES.has(frame.type.toUpperCase())) {
      // A frame the node gave without a well-formed address is passed over rather than stop the copy.
      const address = parseAddressAnyCase(frame.to)
      const creator = parseAddressAnyCase(frame.from)
      if (address && creator) found.push({ address, creator, frame: path })
    }
    frame.calls.forEach((call, index) => walk(call, path === '' ? String(index) : `${path}.${index}`))
  }
  walk(top, '')
  return found
}

/** The frame at `path` of a call tree (as frameCreations names it), or null when the tree has none there. */
export function frameAt(top: CallFrame, path: string): CallFrame | null {
  let frame: CallFrame | undefined = top
  for (const step of path.split('.')) frame = frame?.calls[Number(step)]
  return frame ?? null
}

/** What one transaction's creations need to be recorded. */
export type CreationSource = { txId: number; blockNumber: number; from: string; created: string | null; status: number; trace: CallFrame | null }

/** A creation's row, in the order recordCreations gives its values. */
export const CREATION_COLUMNS = ['address', 'tx_id', 'block_number', 'creator', 'frame'] as const

/**
 * A CREATE2 address can be made again once its contract is gone: each creation keeps its own
 * row (one transaction makes an address at most once), the newest is the contract there now,
 * and rolling the newest back leaves the one before it. The same row again takes the newer
 * creator and frame (a call tree read again). Both engines' inserts end with this clause.
 */
export const CREATION_CONFLICT = 'ON CONFLICT (address, tx_id) DO UPDATE SET creator = excluded.creator, frame = excluded.frame'

export function prepareCreations(db: Database) {
  return db.prepare(`INSERT INTO contract_creations (${CREATION_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?) ${CREATION_CONFLICT}`)
}

/** Where recordCreations puts each creation's row (its values in CREATION_COLUMNS's order). */
export type CreationSink = (address: Uint8Array, txId: number, blockNumber: number, creator: Uint8Array, frame: string | null) => void

/** Records the creations of one stored transaction. */
export function recordCreations(insert: CreationSink, tx: CreationSource): void {
  if (tx.status !== 1) return
  if (tx.created) insert(blob(tx.created), tx.txId, tx.blockNumber, blob(tx.from), null)
  if (!tx.trace) return
  for (const made of frameCreations(tx.trace)) insert(blob(made.address), tx.txId, tx.blockNumber, blob(made.creator), made.frame)
}

type StoredTx = { id: number; block_number: number; from_addr: Uint8Array; to_addr: Uint8Array | null; value: string; input: Uint8Array; trace: string }

/**
 * Fills the creations of a spool that held transactions before it kept them. The transactions'
 * own come in one statement; the frames are read only from the call trees that hold a creation
 * below the top call (a packed tree writes its frames' type first, so `{"t":"CREATE` after the
 * opening brace is one; a tree stored whole names it `"type":"CREATE`), which are few.
 */
export function backfillCreations(db: Database): void {
  db.run(
    `INSERT INTO contract_creations (address, tx_id, block_number, creator, frame)
     SELECT created, id, block_number, from_addr, NULL FROM txs WHERE created IS NOT NULL AND status = 1
     ON CONFLICT (address, tx_id) DO NOTHING`,
  )
  const prepared = prepareCreations(db)
  const insert: CreationSink = (...values) => prepared.run(...values)
  const candidates = db.query<StoredTx, []>(
    `SELECT t.id, t.block_number, t.from_addr, t.to_addr, t.value, t.input, r.trace
     FROM traces r JOIN txs t ON t.id = r.tx_id
     WHERE t.status = 1 AND (instr(substr(r.trace, 2), '{"t":"CREATE') > 0 OR instr(r.trace, '"type":"CREATE') > 0)`,
  )
  for (const row of candidates.iterate()) {
    const from = hex(row.from_addr)
    const call: TxCall = { from, to: hex(row.to_addr), value: `0x${BigInt(row.value).toString(16)}`, input: hex(row.input) }
    const trace = unpackTrace(row.trace, call)
    recordCreations(insert, { txId: row.id, blockNumber: row.block_number, from, created: null, status: 1, trace })
  }
}
