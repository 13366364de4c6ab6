import type { SpoolDb } from '../engine.ts'
import { txId } from '../codec.ts'

// An address's lists in chain order, a page at a time (docs/etherscan.md): each side of a list
// walks its own index from one end of a block range and stops at its page, so an address with a
// million transactions costs what its page costs. Ranges are of blocks, both ends included.

/** Blocks `first` to `last`, both included. */
export type BlockRange = { first: number; last: number }

/** A page of a list: `limit` rows after skipping `offset`, oldest first unless `newestFirst`. */
export type ListPage = { limit: number; offset: number; newestFirst: boolean }

const idBounds = ({ first, last }: BlockRange): [number, number] => [txId(first, 0), txId(last + 1, 0) - 1]
const direction = (page: ListPage) => (page.newestFirst ? 'DESC' : 'ASC')

/**
 * The ids of the transactions `address` sent, received or created a contract with, in the
 * range, paged. One compound SELECT over the three index ranges (txs_from, txs_to and
 * txs_created, ids alone): SQLite merges them as they come in order (its MERGE of a UNION,
 * which also counts a transaction to itself once) and stops at the page's end; on PostgreSQL
 * each side stops there (Dialect.unionSide). So a page costs the `offset + limit` entries before
 * it, 100 or 10,000, whatever the address's total.
 */
export async function addressTxIds(db: SpoolDb, address: Uint8Array, range: BlockRange, page: ListPage): Promise<number[]> {
  const [from, to] = idBounds(range)
  const side = (column: string) => db.dialect.unionSide(`SELECT id FROM txs WHERE ${column} = ? AND id BETWEEN ? AND ?`, `id ${direction(page)}`, page.offset + page.limit)
  const bounds = [address, from, to] as const
  return (
    await db.all<{ id: number }>(
      `${side('from_addr')} UNION ${side('to_addr')} UNION ${side('created')} ORDER BY id ${direction(page)} LIMIT ? OFFSET ?`,
      ...bounds,
      ...bounds,
      ...bounds,
      page.limit,
      page.offset,
    )
  ).map((row) => row.id)
}

/**
 * The ids of the transactions whose nested calls moved ether to or from `address` or created it
 * (the spool's internal_calls), or with any such call at all when `address` is null, in the
 * range, at most `limit`, in the page's order.
 */
export async function internalCallTxIds(db: SpoolDb, address: Uint8Array | null, range: BlockRange, limit: number, newestFirst: boolean): Promise<number[]> {
  const order = newestFirst ? 'DESC' : 'ASC'
  const [from, to] = idBounds(range)
  if (address) {
    return (await db.all<{ id: number }>(`SELECT tx_id AS id FROM internal_calls WHERE address = ? AND tx_id BETWEEN ? AND ? ORDER BY tx_id ${order} LIMIT ?`, address, from, to, limit)).map(
      (row) => row.id,
    )
  }
  return (await db.all<{ id: number }>(`SELECT DISTINCT tx_id AS id FROM internal_calls WHERE tx_id BETWEEN ? AND ? ORDER BY tx_id ${order} LIMIT ?`, from, to, limit)).map((row) => row.id)
}

/** A block as a miner's list shows it, with the fees its transactions paid (wei, decimal) and the base fee they burnt. */
export type MinedBlock = { number: number; timestamp: number; baseFee: string | null }

/** The blocks `miner` mined in the range, paged (the blocks_miner index). */
export async function minedBlocks(db: SpoolDb, miner: Uint8Array, range: BlockRange, page: ListPage): Promise<MinedBlock[]> {
  return db.all<MinedBlock>(
    `SELECT number, timestamp, base_fee AS "baseFee" FROM blocks WHERE miner = ? AND number BETWEEN ? AND ? ORDER BY number ${direction(page)} LIMIT ? OFFSET ?`,
    miner,
    range.first,
    range.last,
    page.limit,
    page.offset,
  )
}

/** What each transaction of block `number` paid: gas used and the price per gas (wei, decimal), in block order. */
export async function blockFees(db: SpoolDb, number: number): Promise<Array<{ gasUsed: number; effectiveGasPrice: string | null; gasPrice: string | null }>> {
  return db.all<{ gasUsed: number; effectiveGasPrice: string | null; gasPrice: string | null }>(
    'SELECT gas_used AS "gasUsed", effective_gas_price AS "effectiveGasPrice", gas_price AS "gasPrice" FROM txs WHERE id BETWEEN ? AND ? ORDER BY id',
    txId(number, 0),
    txId(number + 1, 0) - 1,
  )
}

/**
 * The block closest to `timestamp` (unix seconds) on one side: the last at or before it, or the
 * first at or after it (the blocks_time index); null when the spool holds none there.
 */
export async function blockByTime(db: SpoolDb, timestamp: number, side: 'before' | 'after'): Promise<number | null> {
  const sql =
    side === 'before'
      ? 'SELECT number FROM blocks WHERE timestamp <= ? ORDER BY timestamp DESC, number DESC LIMIT 1'
      : 'SELECT number FROM blocks WHERE timestamp >= ? ORDER BY timestamp ASC, number ASC LIMIT 1'
  return (await db.get<{ number: number }>(sql, timestamp))?.number ?? null
}
