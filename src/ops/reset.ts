import { createRpc, type Rpc } from '../chain/rpc.ts'
import { FatalError, firstLine } from '../errors.ts'
import { pollUntil } from '../time/poll.ts'
import { nodeHead, okBody, type Body } from './reads.ts'
import { OPERATOR_PATH, writeRuntime, type Runtime } from './runtime.ts'

/** The reset could not be done, or the stack did not come back; the message says which and why. */
export class ResetError extends FatalError {
  override name = 'ResetError'
}

export type ResetResult = {
  /** The block the chain went back to (right after deploy and seed). */
  resetBlock: number
  /** The node's head once every service had followed. */
  head: number
  seconds: number
}

/**
 * How often the services are asked whether they followed. None of what is asked counts against a
 * client's minute (the explorer is read through its operator route), so a reset is done within
 * a poll of everything having followed, whoever has spent the minute.
 */
const POLL_MS = 100

/**
 * Takes the dev chain of a running `stack dev` back to its reset point (the state right after
 * deploy and seed): reverts anvil to the snapshot taken there, takes a new one (a revert uses a
 * snapshot up), and mines a block so that everything following new heads sees the chain move at
 * once. Then waits until every service has followed: the spool at a head of the new chain (its
 * hash checked through the explorer's operator route), every derived stream, the explorer's and
 * the exchange's, on that chain, the arcade applying the new head, the faucet reading it. The
 * faucet's quota journal keeps its counts: a reset chain is not a new day.
 */
export async function resetStack(runtime: Runtime, options: { timeoutMs: number }): Promise<ResetResult> {
  if (runtime.mode !== 'dev' || !runtime.snapshot) {
    throw new ResetError(`the stack at pid ${runtime.pid} follows a node it did not start (stack start): only a stack dev chain can be reset`)
  }
  const started = performance.now()
  const rpc = createRpc(runtime.rpcUrl, { timeoutMs: 10_000 })
  const resetBlock = runtime.snapshot.block
  try {
    if (!(await rpc.call<boolean>('evm_revert', [runtime.snapshot.id]))) {
      throw new ResetError(`the dev chain at ${runtime.rpcUrl} no longer has the snapshot ${runtime.snapshot.id} of block ${resetBlock}; restart stack dev for a fresh chain`)
    }
    const id = await rpc.call<string>('evm_snapshot')
    writeRuntime({ ...runtime, snapshot: { id, block: resetBlock } })
    await rpc.call('evm_mine')
  } catch (error) {
    if (error instanceof ResetError) throw error
    throw new ResetError(`the dev chain at ${runtime.rpcUrl} refused the reset: ${firstLine(error)}`)
  }
  const revertedAt = Date.now()
  const followed = async () => {
    const head = await nodeHead(rpc)
    return { head, behind: head === null ? ['the node does not answer'] : await notFollowing(runtime, rpc, resetBlock, head, revertedAt) }
  }
  const { value, met } = await pollUntil(followed, ({ head, behind }) => head !== null && behind.length === 0, { timeoutMs: options.timeoutMs, intervalMs: POLL_MS })
  if (met) return { resetBlock, head: value.head!, seconds: (performance.now() - started) / 1000 }
  throw new ResetError(`the chain went back to block ${resetBlock}, but after ${options.timeoutMs / 1000} s ${value.behind.join('; ')}`)
}

type StreamPosition = { cursorBlock: number | null; lagBlocks: number | null }

/**
 * A derived stream has followed once it is on the chain as it is now: at or past the reset point
 * (a block both chains share) and not past its spool's head, read after that head was found to
 * be a block of the new chain. The spool rolls its streams back in the transaction that drops
 * the orphaned blocks, so such a stream holds nothing of the blocks taken back; it may be a pass
 * behind the head. Waiting for a lag of exactly 0 instead would wait on the streams' own cadence
 * (once caught up each sleeps two seconds between passes, while a block comes every second):
 * seconds at a time, by chance.
 */
function streamsBehind(service: string, streams: Record<string, StreamPosition> | undefined, resetBlock: number, spoolHead: number): string[] {
  return Object.entries(streams ?? {})
    .filter(([, { cursorBlock }]) => typeof cursorBlock !== 'number' || cursorBlock < resetBlock || cursorBlock > spoolHead)
    .map(([name, stream]) => `the ${service}'s ${name} stream is at block ${stream.cursorBlock ?? 'unknown'}`)
}

/** What has not followed the chain back yet, in words; empty once everything has. */
async function notFollowing(runtime: Runtime, rpc: Rpc, resetBlock: number, head: number, revertedAt: number): Promise<string[]> {
  const { explorer, exchange, faucet, arcade } = runtime.services
  const [operator, status, arcadeStats] = await Promise.all([okBody(`${explorer}${OPERATOR_PATH}`), okBody(`${faucet}/status`), okBody(`${arcade}/api/stats`)])
  const onNewChain = (block: unknown): block is number => typeof block === 'number' && block >= resetBlock && block <= head
  const behind: string[] = []

  // The spool: at a block of the chain as it is now, not of the one that was taken back; then
  // the explorer's derived streams and the exchange's, read from the spool once it is.
  const spool = operator?.spool as { head: number | null; hash: string | null; streams: Record<string, StreamPosition> } | undefined
  const indexed = spool?.head
  if (!onNewChain(indexed)) behind.push(`the spool is at block ${indexed ?? 'unknown'}`)
  else {
    const theirs = await rpc.call<{ hash: string } | null>('eth_getBlockByNumber', [`0x${indexed.toString(16)}`, false]).catch(() => null)
    if (typeof spool?.hash !== 'string' || spool.hash.toLowerCase() !== theirs?.hash.toLowerCase()) behind.push(`the spool's block ${indexed} is not the node's`)
    else {
      behind.push(...streamsBehind('explorer', spool.streams, resetBlock, indexed))
      // And the stats object a caller reads next (kept a few hundred milliseconds) says so too.
      const shown = (operator?.stats as Body | undefined)?.indexedBlock
      if (!onNewChain(shown)) behind.push(`the explorer's stats show block ${shown ?? 'unknown'}`)
      const health = await okBody(`${exchange}/health`)
      if (!onNewChain(health?.spoolHeadBlock)) behind.push(`the exchange index reads a spool at block ${health?.spoolHeadBlock ?? 'unknown'}`)
      else behind.push(...streamsBehind('exchange', health!.streams, resetBlock, health!.spoolHeadBlock))
    }
  }
  if (!onNewChain(status?.evmBlock)) behind.push(`the faucet reads block ${status?.evmBlock ?? 'unknown'}`)
  // The arcade: a head applied since the revert (the block mined after it, or a later one).
  const applied = arcadeStats?.node?.appliedMsAgo
  if (!onNewChain(arcadeStats?.head?.block) || typeof applied !== 'number' || applied > Date.now() - revertedAt) {
    behind.push(`the arcade's head is block ${arcadeStats?.head?.block ?? 'unknown'}`)
  }
  return behind
}
