import { numberToHex, type Address, type Hex } from 'viem'
import { subscribeNewHeads, type Head } from './newHeads.ts'
import type { Rpc, RpcCall } from './rpc.ts'

/**
 * A mini-block as the services see it. The chain's sequencer cuts blocks into mini-blocks; a node
 * without them (anvil) makes each block its own mini-block: same number, the block's timestamp
 * in microseconds, the block's transaction count.
 */
export type MiniBlock = {
  number: number
  /** The EVM block the mini-block belongs to. */
  block: number
  hash: Hex
  timestampUs: number
  txCount: number
}

/**
 * The mini-block of a block on a node without mini-blocks of its own (anvil; see
 * docs/arcade.md): the block is its own mini-block, with the same number, its time in microseconds and
 * all its transactions. The one place this rule is written: the spool, the explorer, the arcade
 * and the faucet take their mini-blocks from here.
 */
export function blockAsMiniBlock(block: { number: number; hash: Hex; timestamp: number; txCount: number }): MiniBlock {
  return { number: block.number, block: block.number, hash: block.hash, timestampUs: block.timestamp * 1_000_000, txCount: block.txCount }
}

/** A log as the node's JSON-RPC returns it. */
export type RpcLog = {
  address: Address
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  blockHash: Hex
  transactionHash: Hex
  transactionIndex: Hex
  logIndex: Hex
  removed?: boolean
}

type RpcBlock = { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex; transactions: unknown[] }

export type MiniBlockFollowerOptions = {
  wsUrl: string
  /** Reads of blocks and logs (HTTP JSON-RPC). */
  rpc: Rpc
  /** Contracts whose logs come with each mini-block; with none, no log is asked for. */
  addresses: readonly Address[]
  /** Called once per mini-block, in order, with the logs of `addresses` in it. */
  onMiniBlock: (miniBlock: MiniBlock, logs: RpcLog[]) => void
  /** The node socket opened (true) or dropped (false). */
  onState?: (connected: boolean) => void
  /** A read failed; the follower tries again on a timer while the socket is up, and on the next head. */
  onError?: (error: Error) => void
  /** Mini-blocks that were missed and are too many to fetch: `from` to `to`, both included. */
  onSkip?: (range: { from: number; to: number }) => void
  /** Mini-blocks applied before the first head, and at most fetched after a gap (a dropped socket); older ones are skipped. */
  catchUpBlocks?: number
  /** Reconnect backoff of the node socket. */
  minDelayMs?: number
  maxDelayMs?: number
  /** Wait before retrying a failed read. */
  retryMs?: number
}

export type MiniBlockFollower = {
  /** True while the node socket is open and subscribed. */
  connected: () => boolean
  /** The last mini-block applied, or null before the first. */
  head: () => MiniBlock | null
  stop: () => void
}

const EMPTY: RpcLog[] = []
const RECENT = 256

/**
 * Applies the node's mini-blocks one at a time, in order, each with the logs of the given
 * contracts. New heads come over the node's WebSocket, which reconnects with backoff when it drops;
 * blocks and logs are read over JSON-RPC. The first head comes after the `catchUpBlocks` before it;
 * a head that skips numbers (the socket was down) first fetches the missed mini-blocks, up to
 * `catchUpBlocks`, and reports older ones as skipped. A head announced below the last one
 * applied means the chain went back (a reorganisation, a reverted dev chain, a node started
 * afresh): it is applied as the new head, even when it is the very block applied at its number
 * before. A head at the last one's number with another hash is applied too.
 */
export function followMiniBlocks(options: MiniBlockFollowerOptions): MiniBlockFollower {
  const { rpc, addresses, onMiniBlock, onError = () => {}, onSkip = () => {}, catchUpBlocks = 64, retryMs = 500 } = options
  const withLogs = addresses.length > 0
  let cursor: { number: number; hash: Hex } | null = null
  /** Hashes of the last mini-blocks applied, by number: a late announcement of one is not applied twice. */
  const recent = new Map<number, Hex>()
  let latest: MiniBlock | null = null
  let target: { head: Head; announced: boolean } | null = null
  let running = false
  let stopped = false
  let retry: ReturnType<typeof setTimeout> | null = null

  const apply = (miniBlock: MiniBlock, logs: RpcLog[]) => {
    // The chain went back: what was applied at and above this number is no longer the chain,
    // even where a block made again is the same block (a reverted dev chain makes its empty
    // blocks again with the same times, so the same hashes).
    if (cursor && miniBlock.number <= cursor.number) for (const number of [...recent.keys()]) if (number >= miniBlock.number) recent.delete(number)
    cursor = { number: miniBlock.number, hash: miniBlock.hash }
    latest = miniBlock
    recent.set(miniBlock.number, miniBlock.hash)
    if (recent.size > RECENT) recent.delete(recent.keys().next().value!)
    try {
      onMiniBlock(miniBlock, logs)
    } catch (error) {
      // The consumer's fault, not the node's: reading this block again would not help.
      onError(error as Error)
    }
  }

  const applyHead = async (head: Head) => {
    const calls: RpcCall[] = [{ method: 'eth_getBlockTransactionCountByHash', params: [head.hash] }]
    if (withLogs) calls.push({ method: 'eth_getLogs', params: [{ blockHash: head.hash, address: addresses }] })
    const [count, logs] = await rpc.batch(calls)
    if (!count!.ok) throw count!.error
    // The block is gone (reorganised away) since it was announced; its successor will come.
    if (count!.value === null) return
    if (logs && !logs.ok) throw logs.error
    apply(
      blockAsMiniBlock({ number: head.number, hash: head.hash, timestamp: head.timestamp, txCount: Number(count!.value) }),
      (logs?.value as RpcLog[] | undefined) ?? EMPTY,
    )
  }

  const applyRange = async (from: number, to: number) => {
    const calls = []
    for (let number = from; number <= to; number++) calls.push({ method: 'eth_getBlockByNumber', params: [numberToHex(number), false] })
    if (withLogs) calls.push({ method: 'eth_getLogs', params: [{ fromBlock: numberToHex(from), toBlock: numberToHex(to), address: addresses }] })
    const values = (await rpc.batch(calls)).map((result) => {
      if (!result.ok) throw result.error
      return result.value
    })
    const logsByBlock = new Map<string, RpcLog[]>()
    if (withLogs) {
      for (const log of values.pop() as RpcLog[]) {
        const list = logsByBlock.get(log.blockHash) ?? []
        list.push(log)
        logsByBlock.set(log.blockHash, list)
      }
    }
    for (const value of values) {
      const block = value as RpcBlock | null
      if (!block) continue
      const number = Number(block.number)
      apply(
        blockAsMiniBlock({ number, hash: block.hash, timestamp: Number(block.timestamp), txCount: block.transactions.length }),
        logsByBlock.get(block.hash) ?? EMPTY,
      )
    }
  }

  /**
   * `announced`: the node announced the head as newly made. Such a head below the last one
   * applied means the chain went back and is applied, whatever was applied at its number before;
   * a head read by asking (readLatest) that was applied already is only late.
   */
  const catchUpTo = async (head: Head, announced: boolean) => {
    const wentBack = announced && cursor !== null && head.number < cursor.number
    if (!wentBack && recent.get(head.number) === head.hash) return
    if (!cursor && catchUpBlocks > 0 && head.number > 0) {
      // The first head: the mini-blocks just before it come first, so what happened shortly
      // before the start (a dev chain's seeded plays) is known too.
      await applyRange(Math.max(0, head.number - catchUpBlocks), head.number - 1)
    } else if (cursor && head.number > cursor.number + 1) {
      const first = Math.max(cursor.number + 1, head.number - catchUpBlocks)
      if (first > cursor.number + 1) onSkip({ from: cursor.number + 1, to: first - 1 })
      if (first <= head.number - 1) await applyRange(first, head.number - 1)
    }
    await applyHead(head)
  }

  const run = async () => {
    if (running || stopped) return
    running = true
    try {
      while (target && !stopped) {
        const head = target
        await catchUpTo(head.head, head.announced)
        if (target === head) target = null
      }
    } catch (error) {
      onError(error as Error)
      // While the socket is down the next head after reconnecting starts the run again.
      if (!stopped && target && subscription.connected() && !retry) {
        retry = setTimeout(() => {
          retry = null
          void run()
        }, retryMs)
      }
    } finally {
      running = false
    }
  }

  // On every (re)connect the node's current head is read at once, so the first mini-block (and
  // what was missed while the socket was down) is applied without waiting for the next block.
  const readLatest = async () => {
    try {
      const block = await rpc.call<RpcBlock | null>('eth_getBlockByNumber', ['latest', false])
      if (!block || stopped) return
      const head: Head = { number: Number(block.number), hash: block.hash, parentHash: block.parentHash, timestamp: Number(block.timestamp) }
      // Already applied, or behind a head announced since: nothing to do. A head below the last
      // one applied that is not among the mini-blocks applied means the chain went back (a
      // node started afresh), and is applied like an announced one.
      if (recent.get(head.number) === head.hash || (target && head.number <= target.head.number)) return
      target = { head, announced: false }
      void run()
    } catch (error) {
      onError(error as Error)
    }
  }

  const subscription = subscribeNewHeads(options.wsUrl, {
    onHead: (head) => {
      target = { head, announced: true }
      void run()
    },
    onState: (connected) => {
      options.onState?.(connected)
      if (connected) void readLatest()
    },
    minDelayMs: options.minDelayMs,
    maxDelayMs: options.maxDelayMs,
  })

  return {
    connected: () => subscription.connected(),
    head: () => latest,
    stop: () => {
      stopped = true
      if (retry) clearTimeout(retry)
      subscription.close()
    },
  }
}
