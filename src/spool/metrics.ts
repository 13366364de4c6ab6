import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { SpoolHealth, StreamHealth } from './health.ts'
import type { Spool } from './spool.ts'

/** A request to the node is aimed at a second (the pacer); the buckets show how far from it they land. */
const FETCH_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
/** Blocks in one written transaction: one at the head, up to 100 while catching up. */
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100]
/** Transactions in one written transaction: up to 10,000 while catching up. */
const BATCH_TX_BUCKETS = [0, 1, 10, 100, 1000, 5000, 10_000]
/** Blocks one rollback dropped. */
const DEPTH_BUCKETS = [1, 2, 5, 10, 100, 1000, 10_000]

/**
 * The spool's metrics, in the registry every service shows beside its own: its head, the node's,
 * the lag and each derived stream's, read from the health at each scrape; and what the follower
 * did (requests to the node and their time, written batches, rollbacks, the node's errors) from
 * the observations its worker hands over.
 */
export function registerSpoolMetrics(registry: Registry, spool: Spool): void {
  const registers = [registry]
  const orMinusOne = (value: number | null) => value ?? -1
  // The figures of the health as they stand at the scrape: nothing is done per block for them.
  const gauge = (name: string, help: string, read: (health: SpoolHealth) => number) =>
    new Gauge({ name, help, registers, collect() { this.set(read(spool.health())) } })
  gauge('stack_spool_head_block', 'The last block the spool holds in full (-1 before the first).', (health) => orMinusOne(health.spoolHeadBlock))
  gauge('stack_spool_node_head_block', "The node's head when the spool last asked (-1 before the node answered).", (health) => orMinusOne(health.nodeHeadBlock))
  gauge('stack_spool_lag_blocks', 'Blocks the spool is behind the node (-1 while unknown).', (health) => orMinusOne(health.lagBlocks))
  gauge('stack_spool_node_reachable', '1 while the node answers the spool, else 0.', (health) => (health.nodeReachable ? 1 : 0))
  const streamGauge = (name: string, help: string, read: (stream: StreamHealth) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['stream'],
      registers,
      collect() {
        for (const [stream, health] of Object.entries(spool.health().streams)) this.labels(stream).set(orMinusOne(read(health)))
      },
    })
  streamGauge('stack_stream_lag_blocks', 'Blocks a derived stream is behind the spool (-1 while unknown).', (stream) => stream.lagBlocks)
  streamGauge('stack_stream_cursor_block', 'The last block a derived stream has read (-1 before the first).', (stream) => stream.cursorBlock)
  const fetches = new Histogram({ name: 'stack_spool_fetch_seconds', help: 'Time of each request for blocks to the node.', buckets: FETCH_BUCKETS, registers })
  const batchBlocks = new Histogram({ name: 'stack_spool_batch_blocks', help: 'Blocks written in each transaction of the spool.', buckets: BATCH_BUCKETS, registers })
  const batchTxs = new Histogram({ name: 'stack_spool_batch_transactions', help: 'Transactions written in each transaction of the spool.', buckets: BATCH_TX_BUCKETS, registers })
  const reorganisations = new Histogram({ name: 'stack_spool_reorganisation_depth_blocks', help: 'Blocks each rollback to a common ancestor dropped (its count is the reorganisations followed).', buckets: DEPTH_BUCKETS, registers })
  const rpcErrors = new Counter({ name: 'stack_spool_rpc_errors_total', help: "The spool's failed steps at the node, by kind: timeout, unreachable, error.", labelNames: ['kind'], registers })
  for (const kind of ['timeout', 'unreachable', 'error']) rpcErrors.labels(kind).inc(0)

  spool.onMeter((reading) => {
    for (const { ms } of reading.fetches) fetches.observe(ms / 1000)
    for (const { blocks, txs } of reading.batches) {
      batchBlocks.observe(blocks)
      batchTxs.observe(txs)
    }
    for (const dropped of reading.reorganisations) reorganisations.observe(dropped)
    for (const [kind, count] of Object.entries(reading.rpcErrors)) if (count > 0) rpcErrors.labels(kind).inc(count)
  })
}
