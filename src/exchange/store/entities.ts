import type { SQLQueryBindings } from 'bun:sqlite'
import type { VersionedTable } from './versioned.ts'

type Entry<E> = { entity: E; key: SQLQueryBindings[]; block: number | null }

/**
 * The rows one pass changes, held in memory while its logs are folded in, and written back as
 * a version at the end of every block in which each changed (the pass's logs come in chain
 * order, so a row's block only moves forward). Lives for one pass: a pass that fails is rolled
 * back by its transaction and leaves nothing behind here either.
 */
export class Entities<E> {
  private readonly entries = new Map<string, Entry<E> | null>()

  constructor(
    private readonly table: VersionedTable,
    private readonly encode: (entity: E) => SQLQueryBindings[],
    private readonly decode: (row: Record<string, unknown>) => E,
  ) {}

  /** The row as it stands, or null; reading does not mark it changed. */
  find(id: string, key: SQLQueryBindings[]): E | null {
    return this.entry(id, key)?.entity ?? null
  }

  /**
   * The row, about to change in `block` (made by `create` when there is none yet, else null).
   * If it last changed in an earlier block, that block's version is written first.
   */
  edit(id: string, key: SQLQueryBindings[], block: number, create?: () => E): E | null {
    let entry = this.entry(id, key)
    if (!entry) {
      if (!create) return null
      entry = { entity: create(), key, block: null }
      this.entries.set(id, entry)
    }
    if (entry.block !== null && entry.block !== block) this.table.save(entry.key, this.encode(entry.entity), entry.block)
    entry.block = block
    return entry.entity
  }

  /** Writes every changed row: its last version and its current state. */
  flush(): void {
    for (const entry of this.entries.values()) {
      if (entry?.block !== null && entry?.block !== undefined) this.table.save(entry.key, this.encode(entry.entity), entry.block)
    }
    this.entries.clear()
  }

  private entry(id: string, key: SQLQueryBindings[]): Entry<E> | null {
    if (this.entries.has(id)) return this.entries.get(id)!
    const row = this.table.load(key)
    const entry = row ? { entity: this.decode(row), key, block: null } : null
    this.entries.set(id, entry)
    return entry
  }
}
