// Reorganisations: where the node's chain and the spool's part, and the rollback to there. Also
// how deep a rollback may reach, which bounds the history the derived streams must keep.
import type { Rpc } from '../../chain/rpc.ts'
import { FatalError } from '../../errors.ts'
import { quantity } from '../../eth/quantity.ts'
import { getMeta, setMeta } from '../meta.ts'
import type { Queries, SpoolWriter } from '../engine.ts'
import type { SpoolMeter } from '../meter.ts'
import { getCursor, rollbackTo, storedGapHolding, storedHash } from '../store.ts'
import { rollbackStream, type StreamDefinition } from '../streams.ts'
import type { FollowerLog } from './failures.ts'

/** The chain reorganised deeper than maxReorgDepth: the spool cannot find where it forked. */
export class DeepReorgError extends FatalError {
  override name = 'DeepReorgError'
}

/** How deep a reorganisation may reach: the settings the walk back and the streams' history go by. */
export type ReorgDepth = {
  /** The first block the spool keeps. */
  startBlock: number
  /** How far back a reorganisation may reach before the follower gives up. */
  maxReorgDepth: number
  /** A block the chain may be taken back to at any time, however deep (`stack dev`'s reset point). */
  resetBlock?: number | null
}

/** Blocks asked of the node at once on the walk back. */
const WALK_BATCH = 32
/** The meta key of the first block whose history the streams keep (historyKeptFrom). */
const HISTORY_FROM = 'history_from'
const historyFrom = async (db: Queries) => Number((await getMeta(db, HISTORY_FROM)) ?? Number.NEGATIVE_INFINITY)

/**
 * The walk back looks for the common ancestor above this block: maxReorgDepth below the head,
 * or the reset point's parent when the chain may be taken back to it (its own hash must be
 * compared, so the walk goes one below it). The streams keep the history of every block above it.
 */
export async function deepestAncestor(db: Queries, { maxReorgDepth, resetBlock }: ReorgDepth): Promise<number> {
  const byDepth = (await getCursor(db)) - maxReorgDepth
  return resetBlock === undefined || resetBlock === null ? byDepth : Math.min(byDepth, resetBlock - 1)
}

/**
 * The first block whose history the streams keep: none below the deepest reorganisation the
 * spool follows is ever rolled back to. Recorded (meta `history_from`, only ever raised) before
 * any pass or pruning may rely on it, so that a rollback never reaches below it, even after a
 * reorganisation has taken the cursor back.
 */
export async function historyKeptFrom(writer: SpoolWriter, depth: ReorgDepth): Promise<number> {
  const from = await deepestAncestor(writer, depth)
  if (from > (await historyFrom(writer))) await writer.transaction((tx) => setMeta(tx, HISTORY_FROM, String(from)))
  return from
}

/** Whether the stored block `cursor` is still the node's (true when none is stored there). */
export async function tipMatches(db: Queries, rpc: Rpc, cursor: number): Promise<boolean> {
  const stored = await storedHash(db, cursor)
  if (stored === null) return true
  const block = await rpc.call<{ hash: string } | null>('eth_getBlockByNumber', [`0x${cursor.toString(16)}`, false])
  return block?.hash.toLowerCase() === stored
}

/**
 * Walks back from `from` to the newest block the node and the spool agree on. The walk stops at
 * what it cannot check: a hole the spool recorded, or a block the node no longer has; a fork below
 * those is beyond what the spool can follow (DeepReorgError), as is one deeper than maxReorgDepth.
 */
export async function findAncestor(db: Queries, rpc: Rpc, from: number, depth: ReorgDepth): Promise<number> {
  const { maxReorgDepth, startBlock } = depth
  const deepest = await deepestAncestor(db, depth)
  const kept = await historyFrom(db)
  // The ancestor is at least the first block the streams kept the history of: rolling back to it
  // restores every row changed after it.
  const floor = Math.max(startBlock - 1, deepest, kept - 1)
  // A block above the node's head is missing because the chain got shorter, not lost from history.
  const nodeHead = quantity(await rpc.call<string>('eth_blockNumber'))
  for (let high = from; high > floor; high -= WALK_BATCH) {
    const numbers = range(Math.max(floor + 1, high - WALK_BATCH + 1), high).reverse()
    const answers = await rpc.batch(numbers.map((number) => ({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, false] })))
    for (const [index, number] of numbers.entries()) {
      const answer = answers[index]!
      if (!answer.ok) throw answer.error
      const nodeHash = (answer.value as { hash: string } | null)?.hash.toLowerCase()
      const stored = await storedHash(db, number)
      if (nodeHash !== undefined && nodeHash === stored) return number
      const gap = stored === null ? await storedGapHolding(db, number) : null
      if (gap) throw new DeepReorgError(`the chain reorganised below block ${gap.to + 1}, which follows a history gap the spool recorded (blocks ${gap.from} to ${gap.to}): the fork cannot be found`)
      if (nodeHash === undefined && stored !== null && number <= nodeHead) {
        throw new DeepReorgError(`the chain reorganised below block ${number + 1}, and the node no longer has block ${number}: the fork cannot be found`)
      }
    }
  }
  if (floor <= startBlock - 1) return startBlock - 1
  if (floor === kept - 1 && floor > deepest) {
    throw new DeepReorgError(
      `the chain reorganised below block ${kept}, the oldest whose history the derived streams kept (the spool's head stood higher, or spool.maxReorgDepth was smaller, when they derived it): their rows cannot be rolled back below it`,
    )
  }
  throw new DeepReorgError(`the chain reorganised more than ${maxReorgDepth} blocks below block ${from}`)
}

/**
 * Drops every block above `ancestor` and rolls the derived streams back with it, in one
 * transaction; counts and says it. False when there was nothing above it to drop.
 */
export async function rollBack(
  writer: SpoolWriter,
  ancestor: number,
  { streams, meter, log }: { streams: StreamDefinition[]; meter?: SpoolMeter; log: FollowerLog },
): Promise<boolean> {
  const before = await getCursor(writer)
  const dropped = before - ancestor
  if (dropped === 0) return false
  await rollbackTo(writer, ancestor, async (tx) => {
    for (const stream of streams) await rollbackStream(tx, stream, ancestor)
  })
  meter?.reorganised(dropped)
  log('warn', { from: before, to: ancestor, dropped }, 'chain reorganised: rolled back to the common ancestor')
  return true
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)
