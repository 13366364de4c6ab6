import type { SpoolTx, SqlValue } from '../engine.ts'
import type { VersionedTable } from './tables.ts'
import { keyText, versionedRows, type VersionedRows } from './versioned.ts'

/** A row as the pass holds it: its state (null: there is none) and the last block that changed it in this pass. */
type Entry<E> = { entity: E | null; key: SqlValue[]; block: number | null }

/** How a row stood before a block changed it (null: it did not exist), for the history. */
type Remembered = { key: SqlValue[]; values: SqlValue[] | null; block: number }

/**
 * The rows of a versioned table that one pass changes, held in memory while its logs are folded
 * in. The first time a row changes in a block, how it stood before is kept for the history (the
 * pass's logs come in chain order, so a row's block only moves forward); the history and the
 * rows themselves are written once, by flush, at the end of the pass. Lives for one pass: a pass that fails is rolled
 * back by its transaction and leaves nothing behind here either.
 *
 * `id` is any string unique to the row (the key's bytes in hex, say); `key` is the row's key
 * columns as bound values, in the order the declaration lists them, and `encode` gives its
 * other columns in theirs.
 */
export class Entities<E> {
  private readonly entries = new Map<string, Entry<E>>()
  private readonly remembered: Remembered[] = []
  private readonly rows: VersionedRows
  private readonly keyOf: (row: Record<string, unknown>) => SqlValue[]

  constructor(
    tx: SpoolTx,
    spec: VersionedTable,
    private readonly encode: (entity: E) => SqlValue[],
    private readonly decode: (row: Record<string, unknown>) => E,
  ) {
    this.rows = versionedRows(tx, spec)
    this.keyOf = (row) => spec.keys.map((name) => row[name] as SqlValue)
  }

  /** The row as it stands, or null; reading does not mark it changed. */
  async find(id: string, key: SqlValue[]): Promise<E | null> {
    return (await this.entry(id, key)).entity
  }

  /** The row, about to change in `block`: made by `create` when there is none, else null. */
  async edit(id: string, key: SqlValue[], block: number, create?: () => E): Promise<E | null> {
    const entry = await this.entry(id, key)
    if (entry.entity === null && !create) return null
    this.changes(entry, block)
    entry.entity ??= create!()
    return entry.entity
  }

  /** Deletes the row in `block`; nothing when there is none. */
  async remove(id: string, key: SqlValue[], block: number): Promise<void> {
    const entry = await this.entry(id, key)
    if (entry.entity === null) return
    this.changes(entry, block)
    entry.entity = null
  }

  /**
   * Reads the rows of `wanted` the pass does not hold yet, many a query, before it changes them:
   * a pass that knows which rows its logs touch asks for them together rather than one round trip
   * each (PostgreSQL). Each is `id` and `key` as `edit` takes them.
   */
  async preload(wanted: ReadonlyArray<{ id: string; key: SqlValue[] }>): Promise<void> {
    const missing = new Map<string, SqlValue[]>()
    for (const { id, key } of wanted) if (!this.entries.has(id) && !missing.has(id)) missing.set(id, key)
    const ids = [...missing.keys()]
    for (let start = 0; start < ids.length; start += PRELOAD_KEYS) {
      const chunk = ids.slice(start, start + PRELOAD_KEYS)
      const byKey = new Map(chunk.map((id) => [keyText(missing.get(id)!), id]))
      const found = new Map<string, Record<string, unknown>>()
      for (const row of await this.rows.loadMany(chunk.map((id) => missing.get(id)!))) {
        const id = byKey.get(keyText(this.keyOf(row)))
        if (id !== undefined) found.set(id, row)
      }
      for (const id of chunk) {
        if (this.entries.has(id)) continue
        const row = found.get(id)
        this.entries.set(id, { entity: row ? this.decode(row) : null, key: missing.get(id)!, block: null })
      }
    }
  }

  /**
   * Tells the pass what the row is (null: there is none) when the stream read it itself, with
   * others in one query, so that it is not looked up again; no effect once the pass holds the row.
   */
  know(id: string, key: SqlValue[], row: E | null): void {
    if (!this.entries.has(id)) this.entries.set(id, { entity: row, key, block: null })
  }

  /**
   * Writes the history the pass kept, in chain order, then every row the pass changed (or
   * deletes it), in key order: rows changed at random places of a large table then share their
   * pages, which a pass that changes thousands of rows of a table bigger than SQLite's cache
   * needs (the order of the writes changes nothing else). The statements are queued (SpoolTx):
   * on PostgreSQL they go out one behind the other, with no round trip each.
   */
  flush(): void {
    const changed = [...this.entries.values()].filter((entry) => entry.block !== null)
    changed.sort((a, b) => compareKeys(a.key, b.key))
    this.rows.remember(this.remembered)
    const written: Array<{ key: SqlValue[]; values: SqlValue[] }> = []
    for (const { entity, key } of changed) {
      if (entity === null) this.rows.remove(key)
      else written.push({ key, values: this.encode(entity) })
    }
    this.rows.write(written)
    this.entries.clear()
    this.remembered.length = 0
  }

  /** Before the row's first change in `block`, how it stood goes into the history (when the pass keeps that block's). */
  private changes(entry: Entry<E>, block: number): void {
    if (entry.block === block) return
    if (this.rows.keepsHistoryOf(block)) this.remembered.push({ key: entry.key, values: entry.entity === null ? null : this.encode(entry.entity), block })
    entry.block = block
  }

  private async entry(id: string, key: SqlValue[]): Promise<Entry<E>> {
    const held = this.entries.get(id)
    if (held) return held
    const row = await this.rows.load(key)
    // Known meanwhile (the stream read it with others while this one was asked for): that stands.
    const known = this.entries.get(id)
    if (known) return known
    const entry = { entity: row ? this.decode(row) : null, key, block: null }
    this.entries.set(id, entry)
    return entry
  }
}

/** How many keys one preload query asks for. */
const PRELOAD_KEYS = 500

/** Two keys of one table in SQLite's order: numbers, then text, then bytes; each by value. */
export function compareKeys(a: readonly SqlValue[], b: readonly SqlValue[]): number {
  for (let index = 0; index < a.length; index++) {
    const order = compareValues(a[index], b[index])
    if (order !== 0) return order
  }
  return 0
}

function compareValues(a: SqlValue | undefined, b: SqlValue | undefined): number {
  // The two kinds keys are made of, first: a flush sorts thousands of them.
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b)
  const difference = rank(a) - rank(b)
  if (difference !== 0) return difference
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  if (rank(a) === 1) return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0
  return 0
}

/** SQLite's order of kinds: null, then numbers, then text, then bytes. */
function rank(value: SqlValue | undefined): number {
  return value === null || value === undefined ? 0 : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? 1 : typeof value === 'string' ? 2 : 3
}


/**
 * Rows a pass appends to one table (its events, its creations), written together when the pass
 * flushes them (SpoolTx.queueRows): `into` is `INSERT INTO table (columns)`. Nothing in the pass
 * reads them back before it ends.
 */
export function appendedRows(tx: SpoolTx, into: string) {
  const rows: SqlValue[][] = []
  return {
    add: (...values: SqlValue[]) => void rows.push(values),
    flush: () => tx.queueRows(into, rows.splice(0)),
  }
}
