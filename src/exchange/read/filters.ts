import type { SQLQueryBindings } from 'bun:sqlite'

/**
 * A WHERE clause from optional equality filters: only the ones given take part, so each
 * combination is its own short SQL text (and its own cached statement using the right index).
 */
export function where(filters: Array<[column: string, value: SQLQueryBindings | null | undefined]>): { sql: string; params: SQLQueryBindings[] } {
  const used = filters.filter(([, value]) => value !== null && value !== undefined)
  return {
    sql: used.length === 0 ? '' : `WHERE ${used.map(([column]) => `${column} = ?`).join(' AND ')}`,
    params: used.map(([, value]) => value!),
  }
}
