import type { SpoolDb } from '../engine.ts'
import { blob } from '../../eth/bytes.ts'
import { frameAt } from '../creations.ts'
import { txTrace } from './transactions.ts'

// Who created a contract, in which transaction, and with what input: the transactions' own
// creations and those their calls made (CREATE and CREATE2 frames of the stored call trees; on a
// node that gave no traces, only the transactions' own). Addresses and hashes are raw bytes.

/** At most this many addresses per creationsOf call (Etherscan's getcontractcreation takes five). */
export const MAX_CREATION_LOOKUPS = 5

export type Creation = {
  address: Uint8Array
  /** The transaction's sender for its own creation, else the contract whose frame made it. */
  creator: Uint8Array
  txHash: Uint8Array
  blockNumber: number
  txId: number
  /** The creating frame's path in the transaction's call tree ("0.2.1"), null for the transaction's own creation. */
  frame: string | null
  /**
   * The creation input (code followed by constructor arguments): the transaction's input for
   * its own creation, the creating frame's input otherwise; null when the spool cannot know it
   * (the call tree is not stored).
   */
  input: Uint8Array | null
}

type Row = Omit<Creation, 'input'> & { txInput: Uint8Array }

// The newest creation of an address is the contract there now (a CREATE2 address made again
// after its contract was destroyed keeps a row per creation).
const LATEST = `SELECT c.address, c.creator, t.hash AS "txHash", c.block_number AS "blockNumber", c.tx_id AS "txId", c.frame, t.input AS "txInput"
  FROM contract_creations c JOIN txs t ON t.id = c.tx_id WHERE c.address = ? ORDER BY c.tx_id DESC LIMIT 1`

/** How the contract at `address` was created, or null when the spool holds no creation of it. */
export async function creationOf(db: SpoolDb, address: Uint8Array): Promise<Creation | null> {
  const row = await db.get<Row>(LATEST, address)
  if (!row) return null
  const { txInput, ...creation } = row
  if (creation.frame === null) return { ...creation, input: txInput }
  const trace = await txTrace(db, creation.txId)
  const frame = trace ? frameAt(trace, creation.frame) : null
  return { ...creation, input: frame ? blob(frame.input) : null }
}

/** The creations of up to MAX_CREATION_LOOKUPS addresses, in the order asked, each once; addresses without one are left out. */
export async function creationsOf(db: SpoolDb, addresses: readonly Uint8Array[]): Promise<Creation[]> {
  const unique = [...new Map(addresses.map((address) => [address.toHex(), address])).values()]
  if (unique.length > MAX_CREATION_LOOKUPS) throw new RangeError(`at most ${MAX_CREATION_LOOKUPS} addresses, got ${unique.length}`)
  return (await Promise.all(unique.map((address) => creationOf(db, address)))).filter((creation) => creation !== null)
}
