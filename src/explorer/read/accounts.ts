import type { SpoolDb } from '../../spool/engine.ts'
import type { Page } from '../paging.ts'
import { createdContract, txIdsReceivedBy, txIdsSentBy, txsByIds, type TxSummary } from '../../spool/read.ts'

/**
 * The newest transactions sent by, sent to, or creating `address`, paged. The spool indexes each
 * side separately, so a page is the merge of the newest `offset + limit` of each: two index walks,
 * never a scan of everything the address ever did. `creationTx` is the transaction that created
 * the contract at `address`, if one did.
 */
export async function addressTransactions(db: SpoolDb, address: Uint8Array, creationTx: number | null, { limit, offset }: Page): Promise<TxSummary[]> {
  const wanted = offset + limit
  const [sent, received] = await Promise.all([await txIdsSentBy(db, address, wanted), await txIdsReceivedBy(db, address, wanted)])
  const ids = new Set([...sent, ...received])
  // The creation of a contract is a transaction "to" it, though its `to` is empty.
  const created = creationTx === null ? null : await createdContract(db, creationTx)
  if (created !== null && Buffer.compare(created, address) === 0) ids.add(creationTx!)
  return await txsByIds(db, [...ids].sort((a, b) => b - a).slice(offset, wanted))
}
