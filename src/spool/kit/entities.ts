import type { Database, SQLQueryBindings } from 'bun:sqlite'
import type { VersionedTable } from './tables.ts'
import { versionedRows, type VersionedRows } from './versioned.ts'

type Entry<E> = { entity: E; key: SQLQueryBindings[]; block: number | null; removed: boolean }

/**
 * The rows of a versioned table that one pass changes, held in memory while its logs are folded
 * in, and written back as a version at the end of every block in which each changed (the pass's
 * logs come in chain order, so a row's block only moves forward). Lives for one pass: a pass that
 * fails is rolled back by its transaction and leaves nothing behind here either.
 *
 * `id` is any string unique to the row (the key's bytes in hex, say); `key` is the row's key
 * columns as bound values, in the order the declaration lists them, and `encode` gives its
 * other columns in theirs.
 */
export class Entities<E> {
  private readonly entries = new Map<string, Entry<E> | null>()
  private readonly rows: VersionedRows

  constructor(
    db: Database,
    spec: VersionedTable,
    private readonly encode: (entity: E) => SQLQueryBindings[],
    private readonly decode: (row: Record<string, unknown>) => E,
  ) {
    this.rows = versionedRows(db, spec)
  }

  /** The row as it stands, or null; reading does not mark it changed. */
  find(id: string, key: SQLQueryBindings[]): E | null {
    const entry = this.entry(id, key)
    return entry && !entry.removed ? entry.entity : null
  }

  /**
   * The row, about to change in `block` (made by `create` when there is none, else null). If it
   * last changed in an earlier block, that block's version is written first.
   */
  edit(id: string, key: SQLQueryBindings[], block: number, create?: () => E): E | null {
    let entry = this.entry(id, key)
    if (entry && !entry.removed) {
      this.settle(entry, block)
    } else if (!create) {
      return null
    } else if (entry) {
      // Deleted earlier (in this pass or before): born again.
      this.settle(entry, block)
      entry.entity = create()
      entry.removed = false
    } else {
      entry = { entity: create(), key, block: null, removed: false }
      this.entries.set(id, entry)
    }
    entry.block = block
    return entry.entity
  }

  /** Deletes the row in `block` (the table must be declared removable); nothing when there is none. */
  remove(id: string, key: SQLQueryBindings[], block: number): void {
    const entry = this.entry(id, key)
    if (!entry || entry.removed) return
    this.settle(entry, block)
    entry.removed = true
    entry.block = block
  }

  /** Writes every changed row: its last version and its current state. */
  flush(): void {
    for (const entry of this.entries.values()) if (entry && entry.block !== null) this.write(entry)
    this.entries.clear()
  }

  /** Before a row changes in `block`, the version of the earlier block it changed in is written. */
  private settle(entry: Entry<E>, block: number): void {
    if (entry.block !== null && entry.block !== block) this.write(entry)
  }

  private write(entry: Entry<E>): void {
    if (entry.removed) this.rows.remove(entry.key, this.encode(entry.entity), entry.block!)
    else this.rows.save(entry.key, this.encode(entry.entity), entry.block!)
  }

  private entry(id: string, key: SQLQueryBindings[]): Entry<E> | null {
    const known = this.entries.get(id)
    if (known !== undefined) return known
    const row = this.rows.load(key)
    const entry = row ? { entity: this.decode(row), key, block: null, removed: false } : null
    this.entries.set(id, entry)
    return entry
  }
}
