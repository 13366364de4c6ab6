import { foldKey } from './fold.ts'

/**
 * Entries found by the start of any of their keys, case-insensitively: the keys are kept sorted,
 * so a prefix is one binary search and a walk over the keys that begin with it, never a scan.
 * Entries are added in batches: `add` queues them and the next search merges the queue into the
 * sorted keys (one sort of the new keys and one linear merge), so building 100,000 entries one
 * by one costs one sort, not 100,000 insertions.
 */
export class PrefixIndex<T> {
  private keys: string[] = []
  private owners: number[] = []
  private readonly entries: T[] = []
  private pending: Array<[string, number]> = []

  get size(): number {
    return this.entries.length
  }

  /** Adds `entry`, found by every start of each of `keys` (lower-cased here; empty keys ignored). */
  add(entry: T, keys: Iterable<string>): void {
    const id = this.entries.push(entry) - 1
    const seen = new Set<string>()
    for (const key of keys) {
      const folded = foldKey(key)
      if (folded === '' || seen.has(folded)) continue
      seen.add(folded)
      this.pending.push([folded, id])
    }
  }

  /**
   * The entries with a key that starts with `prefix` (already folded by `foldKey`), in key order,
   * each once, at most `limit` of them and after walking at most `walk` keys. `exact` tells
   * whether the entry's key equals the prefix: those come first, since a key sorts before every
   * longer key it begins.
   */
  find(prefix: string, limit: number, walk = limit * 8): Array<{ entry: T; exact: boolean }> {
    this.merge()
    const found: Array<{ entry: T; exact: boolean }> = []
    if (prefix === '') return found
    const taken = new Set<number>()
    let at = lowerBound(this.keys, prefix)
    for (let walked = 0; at < this.keys.length && walked < walk && found.length < limit; at++, walked++) {
      const key = this.keys[at]!
      if (!key.startsWith(prefix)) break
      const id = this.owners[at]!
      if (taken.has(id)) continue
      taken.add(id)
      found.push({ entry: this.entries[id]!, exact: key === prefix })
    }
    return found
  }

  private merge(): void {
    if (this.pending.length === 0) return
    const added = this.pending.sort((a, b) => compare(a[0], b[0]))
    this.pending = []
    const keys = new Array<string>(this.keys.length + added.length)
    const owners = new Array<number>(keys.length)
    let i = 0
    let j = 0
    for (let out = 0; out < keys.length; out++) {
      if (j >= added.length || (i < this.keys.length && compare(this.keys[i]!, added[j]![0]) <= 0)) {
        keys[out] = this.keys[i]!
        owners[out] = this.owners[i++]!
      } else {
        keys[out] = added[j]![0]
        owners[out] = added[j++]![1]
      }
    }
    this.keys = keys
    this.owners = owners
  }
}

/**
 * The keys of a name: the whole of it, and the rest of it from the start of each later word, so
 * that `ether` finds "Wrapped Ether" and `weth` finds "Wrapped Ether (WETH9)". At most `most`.
 */
export function wordKeys(name: string, most = 6): string[] {
  const keys = [name]
  const words = /[\p{L}\p{N}]+/gu
  let match: RegExpExecArray | null
  while ((match = words.exec(name)) !== null && keys.length < most) {
    if (match.index > 0) keys.push(name.slice(match.index))
  }
  return keys
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

function lowerBound(sorted: string[], value: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (sorted[middle]! < value) low = middle + 1
    else high = middle
  }
  return low
}
