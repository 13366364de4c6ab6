import { txId } from '../codec.ts'
import type { SpoolTx } from '../engine.ts'
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
 * State that changes (reserves, a tick's liquidity, a holder's balance): the current rows in
 * `table`, keyed by `keys`, and in `<table>_history` (made by versionedHistorySql) how each row
 * stood before every block that changed it, or that it did not exist yet. A rollback puts every
 * row changed above the ancestor back as it stood at the end of the ancestor: made, changed or
 * deleted since, it is as it was. Write it through `Entities` (entities.ts), which keeps the history.
 */
export type VersionedTable = { kind: 'versioned'; table: string; history: string; keys: readonly string[]; columns: readonly string[] }

export type StreamTable = EventTable | CreatedTable | VersionedTable

export const eventTable = (table: string, txColumn = 'tx_id'): EventTable => ({ kind: 'events', table, txColumn })

export const createdTable = (table: string, blockColumn: string): CreatedTable => ({ kind: 'created', table, blockColumn })

export const versionedTable = (spec: { table: string; keys: readonly string[]; columns: readonly string[] }): VersionedTable => ({
  kind: 'versioned',
  history: `${spec.table}_history`,
  ...spec,
})

/**
 * The history table of a versioned table, for the stream's migration: one row per row and block
 * that changed it, keyed by (block, keys...) so that it is appended in block order (a key-first
 * order would scatter every write across the table). The columns take the values as they are,
 * untyped; `existed` is 0 for a row that did not exist before the block.
 */
export function versionedHistorySql(spec: VersionedTable): string {
  const columns = [...spec.keys, ...spec.columns].join(', ')
  return `CREATE TABLE ${spec.history} (block INTEGER NOT NULL, ${columns}, existed INTEGER NOT NULL, PRIMARY KEY (block, ${spec.keys.join(', ')})) WITHOUT ROWID;`
}

/** Every table a declaration covers: its own, and a versioned table's history. */
export const tableNames = (table: StreamTable): string[] => (table.kind === 'versioned' ? [table.table, table.history] : [table.table])

/**
 * Leaves the declared tables as a run that stopped at the end of block `ancestor` would have
 * left them. Runs inside the spool's rollback transaction.
 */
export async function rollbackTables(tx: SpoolTx, tables: readonly StreamTable[], ancestor: number): Promise<void> {
  const firstOrphanTx = txId(ancestor + 1, 0)
  for (const table of tables) {
    switch (table.kind) {
      case 'events':
        await tx.run(`DELETE FROM ${table.table} WHERE ${table.txColumn} >= ?`, firstOrphanTx)
        break
      case 'created':
        await tx.run(`DELETE FROM ${table.table} WHERE ${table.blockColumn} > ?`, ancestor)
        break
      case 'versioned':
        await versionedRows(tx, table).rollback(ancestor)
        break
    }
  }
}
