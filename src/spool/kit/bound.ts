import { GET_META_SQL, SET_META_SQL } from '../meta.ts'
import type { SpoolTx, SpoolWriter } from '../engine.ts'
import type { StreamTable, VersionedTable } from './tables.ts'

// How far back a stream's versioned history goes. A rollback never reaches deeper than the
// deepest reorganisation the spool follows, except to the reset point (`stack dev`'s state right
// after deploy and seed), which the chain may be taken back to at any time. So the history is
// kept whole from `below` on, and before it only how each row stood at the end of the reset
// block: the rows of every later block below `below` are folded into the block after the reset
// point, one row a key, the earliest (how the row stood before the first block that changed it
// after the reset point, which is how it stood at the end of the reset block). A rollback to the
// reset point reads them as it reads any history; one to a block between the reset point and the
// folded blocks' end cannot be exact, and goes back to the reset point instead (`exactAncestor`),
// the stream deriving the blocks in between again from the spool.

/** `below`: the first block whose history is kept whole; `resetBlock`: the block the chain may be taken back to, if any. */
export type HistoryBound = { below: number; resetBlock: number | null }

/** How many history rows one call drops or folds, about: a batch is a short transaction that never holds the writer up for long. */
export const BOUND_BATCH_ROWS = 5000

/** Blocks `reset + 2` to `below - 1` of the stream's history may be folded into block `reset + 1`. */
type Folded = { reset: number; below: number }

export const foldedKey = (stream: string) => `history_folded:${stream}`

async function readFolded(tx: SpoolTx, stream: string): Promise<Folded | null> {
  const row = await tx.get<{ value: string }>(GET_META_SQL, foldedKey(stream))
  return row === null ? null : (JSON.parse(row.value) as Folded)
}

/**
 * The block a rollback of the stream to `ancestor` must go back to for its rows to be exact:
 * `ancestor` itself, or the reset point when history above `ancestor` was folded into it. Forgets
 * the fold once the rollback reaches the reset point (the folded rows go with it).
 */
export async function exactAncestor(tx: SpoolTx, stream: string, ancestor: number): Promise<number> {
  const folded = await readFolded(tx, stream)
  if (folded === null) return ancestor
  const to = ancestor > folded.reset && ancestor < folded.below - 1 ? folded.reset : ancestor
  if (to <= folded.reset) await tx.run('DELETE FROM meta WHERE key = ?', foldedKey(stream))
  return to
}

/**
 * One batch of bounding the stream's history (in its own transaction): drops rows no rollback can
 * read and folds those only a rollback to the reset point reads, about BOUND_BATCH_ROWS at most.
 * Gives whether more is left to do.
 */
export async function boundHistory(writer: SpoolWriter, stream: string, tables: readonly StreamTable[], bound: HistoryBound, batchRows = BOUND_BATCH_ROWS): Promise<boolean> {
  const versioned = tables.filter((table): table is VersionedTable => table.kind === 'versioned')
  if (versioned.length === 0) return false
  return writer.transaction(async (tx) => {
    const { below } = bound
    const folded = await readFolded(tx, stream)
    // What was folded into a reset point stays folded into it until a rollback reaches it (a spool
    // kept from an earlier session, whose reset point was another): every rollback into the
    // folded blocks goes back there, and is exact, whatever the reset point is now.
    const reset = folded ? folded.reset : bound.resetBlock
    const folding = reset !== null && below > reset + 2
    // With no reset point, or one inside the window, nothing is folded and only rows below both go.
    const keepFrom = reset === null ? below : folding ? reset + 1 : Math.min(below, reset - 1)
    let left = batchRows
    let foldedBelow = folded ? folded.below : 0
    for (const table of versioned) {
      if (left <= 0) break
      left -= await dropBelow(tx, table, keepFrom, left)
      if (folding && left > 0) {
        const { rows, to } = await foldInto(tx, table, reset, below, left)
        left -= rows
        foldedBelow = Math.max(foldedBelow, to)
      }
    }
    if (folding && foldedBelow > reset + 2) await tx.run(SET_META_SQL, foldedKey(stream), JSON.stringify({ reset, below: foldedBelow } satisfies Folded))
    for (const table of versioned) {
      if ((await hasRows(tx, table, Number.NEGATIVE_INFINITY, keepFrom)) || (folding && (await hasRows(tx, table, reset + 2, below)))) return true
    }
    return false
  })
}

/** Whole blocks of history from `from` (included) up to `to` (not), about `limit` rows: the block the batch ends before. */
async function batchEnd(tx: SpoolTx, table: VersionedTable, from: number, to: number, limit: number): Promise<number | null> {
  const first = await tx.get<{ block: number }>(`SELECT block FROM ${table.history} WHERE block >= ? AND block < ? ORDER BY block LIMIT 1`, from, to)
  if (!first) return null
  const cut = await tx.get<{ block: number }>(`SELECT block FROM ${table.history} WHERE block >= ? AND block < ? ORDER BY block LIMIT 1 OFFSET ?`, from, to, limit)
  if (!cut) return to
  // A block alone holds more rows than the batch: it goes whole all the same.
  return cut.block > first.block ? cut.block : cut.block + 1
}

async function dropBelow(tx: SpoolTx, table: VersionedTable, keepFrom: number, limit: number): Promise<number> {
  const end = await batchEnd(tx, table, Number.MIN_SAFE_INTEGER, keepFrom, limit)
  return end === null ? 0 : tx.run(`DELETE FROM ${table.history} WHERE block < ?`, end)
}

/**
 * Folds a batch of the blocks from `reset + 2` up to `below` into block `reset + 1`: for each key,
 * the batch's earliest row, unless the key has one there already (an earlier one). Batches go up
 * in block order, so each key keeps its earliest row after the reset point.
 */
async function foldInto(tx: SpoolTx, table: VersionedTable, reset: number, below: number, limit: number): Promise<{ rows: number; to: number }> {
  const from = reset + 2
  const end = await batchEnd(tx, table, from, below, limit)
  if (end === null) return { rows: 0, to: 0 }
  const keys = table.keys.join(', ')
  const all = [...table.keys, ...table.columns].join(', ')
  // Each key's earliest row of the batch, by its rank in the key's rows (both engines number a window's rows).
  await tx.run(
    `INSERT INTO ${table.history} (block, ${all}, existed)
       SELECT ?, ${all}, existed FROM (
         SELECT ${all}, existed, row_number() OVER (PARTITION BY ${keys} ORDER BY block) AS nth FROM ${table.history} WHERE block >= ? AND block < ?
       ) AS earliest WHERE nth = 1
     ON CONFLICT DO NOTHING`,
    reset + 1,
    from,
    end,
  )
  const rows = await tx.run(`DELETE FROM ${table.history} WHERE block >= ? AND block < ?`, from, end)
  return { rows, to: end }
}

async function hasRows(tx: SpoolTx, table: VersionedTable, from: number, to: number): Promise<boolean> {
  return (await tx.get(`SELECT 1 AS found FROM ${table.history} WHERE block >= ? AND block < ? LIMIT 1`, Math.max(from, Number.MIN_SAFE_INTEGER), to)) !== null
}
