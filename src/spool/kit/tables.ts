import type { Database } from 'bun:sqlite'
import { txId } from '../codec.ts'
import { versionedRows } from './versioned.ts'

// The stream kit: what every derived stream needs to survive a reorganisation, declared once per
// table. A stream says what kind each of its tables is; the spool rolls them back itself, in the
// transaction that drops the orphaned blocks, so a stream writes no rollback code of its own.

/**
 * Rows appended once per log (or per part of one), keyed by the spool's (tx_id, log_index): a
 * swap, a transfer. A rollback deletes the rows of orphaned transactions.
 */
export type EventTable = { kind: 'events'; table: string; txColumn: string }

/**
 * Rows written once, in the block `blockColumn` holds, and never changed: a pair's creation, a
 * fee tier's enabling. A rollback deletes the rows of orphaned blocks.
 */
export type CreatedTable = { kind: 'created'; table: string; blockColumn: string }

/**
 * State that changes (reserves, a tick's liquidity, a holder's balance): the current row in
 * `table`, and in `<table>_history` the whole row as it stood at the end of every block in which
 * it changed, keyed by (keys..., block) with an index on block. A rollback drops the versions
 * above the ancestor and puts back, row by row, the last one left (or nothing, if the row was
 * born later). With `removable`, a row can also be deleted: the history then has a `removed`
 * column (1 for the version that deleted it), and a rollback to before the deletion brings the
 * row back. Write it through `Entities` (entities.ts), which keeps the versions.
 */
export type VersionedTable = { kind: 'versioned'; table: string; history: string; keys: readonly string[]; columns: readonly string[]; removable: boolean }

export type StreamTable = EventTable | CreatedTable | VersionedTable

export const eventTable = (table: string, txColumn = 'tx_id'): EventTable => ({ kind: 'events', table, txColumn })

export const createdTable = (table: string, blockColumn: string): CreatedTable => ({ kind: 'created', table, blockColumn })

export const versionedTable = (spec: { table: string; keys: readonly string[]; columns: readonly string[]; removable?: boolean }): VersionedTable => ({
  kind: 'versioned',
  history: `${spec.table}_history`,
  removable: false,
  ...spec,
})

/** Every table a declaration covers: its own, and a versioned table's history. */
export const tableNames = (table: StreamTable): string[] => (table.kind === 'versioned' ? [table.table, table.history] : [table.table])

/**
 * Leaves the declared tables as a run that stopped at the end of block `ancestor` would have
 * left them. Runs inside the spool's rollback transaction.
 */
export function rollbackTables(db: Database, tables: readonly StreamTable[], ancestor: number): void {
  const firstOrphanTx = txId(ancestor + 1, 0)
  for (const table of tables) {
    switch (table.kind) {
      case 'events':
        db.run(`DELETE FROM ${table.table} WHERE ${table.txColumn} >= ?`, [firstOrphanTx])
        break
      case 'created':
        db.run(`DELETE FROM ${table.table} WHERE ${table.blockColumn} > ?`, [ancestor])
        break
      case 'versioned':
        versionedRows(db, table).rollback(ancestor)
        break
    }
  }
}
