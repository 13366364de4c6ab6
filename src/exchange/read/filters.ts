import type { Hex } from 'viem'
import type { SqlValue } from '../../spool/engine.ts'
import type { IndexReader } from './indexReader.ts'

type Filter = [column: string, value: SqlValue | null | undefined]

/**
 * A WHERE clause from optional equality filters: only the ones given take part, so each
 * combination is its own short SQL text (and its own cached statement using the right index).
 */
export function where(filters: Filter[]): { sql: string; params: SqlValue[] } {
  const used = filters.filter(([, value]) => value !== null && value !== undefined)
  return {
    sql: used.length === 0 ? '' : `WHERE ${used.map(([column]) => `${column} = ?`).join(' AND ')}`,
    params: used.map(([, value]) => value!),
  }
}

/**
 * A page of an event table (swaps, mints and burns, collects) of either family: the rows that
 * match the filters, newest first, each with its transaction's hash from the spool.
 */
export function newestEvents<Row extends { tx_id: number }>(index: IndexReader, table: string, columns: string, filters: Filter[], limit: number): Promise<Array<Row & { txHash: Hex }>> {
  const clause = where(filters)
  return index.allWithTxHash<Row>(`SELECT ${columns} FROM ${table} ${clause.sql} ORDER BY tx_id DESC, log_index DESC LIMIT ?`, ...clause.params, limit)
}

/** What names a row of an event table in an answer: its transaction, its log and its block. */
export function eventId(row: { txHash: Hex; log_index: number; block: number }): { txHash: Hex; logIndex: number; block: number } {
  return { txHash: row.txHash, logIndex: row.log_index, block: row.block }
}
