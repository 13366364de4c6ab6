import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseConfig } from '../../src/config/load.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { sustainLoad } from '../helpers/chainLoad.ts'
import { startNode } from '../helpers/devChain.ts'
import { percentile } from '../helpers/percentile.ts'
import { captureLog } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'

// A busy chain whose node keeps only its last blocks' transactions, as the real node keeps about
// two minutes of history: the spool, with the default settings, has to keep pace or lose blocks.

const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

const SECONDS = 60
const TXS_PER_BLOCK = 150
const BLOCK_MS = 500
/** The node keeps the transactions of its last 40 blocks: 20 seconds at this pace. */
const KEEPER = 40

test(
  `a minute of ${TXS_PER_BLOCK} transactions every ${BLOCK_MS} ms: the spool stays within a few blocks of the head and misses nothing`,
  async () => {
    const node = await startNode({ args: ['--transaction-block-keeper', String(KEEPER)] })
    cleanup.push(() => node.stop())
    const { log, lines } = captureLog()
    // The default settings: only the node and the data folder are given.
    const dir = mkdtempSync(join(tmpdir(), 'stack-sustained-'))
    const config = parseConfig(`[chain]\nrpc = "${node.rpcUrl}"\nws = "${node.wsUrl}"\n[data]\ndir = "${dir}"\n`, null)
    const spool = await startSpool(config, spoolWiring(config), log, { fresh: true })
    cleanup.push(() => spool.stop())
    await waitFor(() => spool.health().spoolHeadBlock === 0, 'the spool to start')

    const stop = new AbortController()
    const load = sustainLoad(node, { txsPerBlock: TXS_PER_BLOCK, blockMs: BLOCK_MS, signal: stop.signal })
    const lags: number[] = []
    const sampling = setInterval(async () => {
      const spoolHead = spool.health().spoolHeadBlock ?? 0
      lags.push((await node.head()) - spoolHead)
    }, 250)
    await Bun.sleep(SECONDS * 1000)
    stop.abort()
    const produced = await load
    clearInterval(sampling)
    const last = produced.at(-1)!.number
    await waitFor(() => (spool.health().spoolHeadBlock ?? 0) >= last, 'the spool to store the last block')

    expect(produced.length).toBeGreaterThan((SECONDS * 1000) / BLOCK_MS / 2)
    const p99 = percentile(
      [...lags].sort((a, b) => a - b),
      0.99,
    )
    // Within a few blocks of the head the whole time, never near the node's history window.
    expect(p99).toBeLessThanOrEqual(3)
    expect(Math.max(...lags)).toBeLessThan(KEEPER / 2)
    const health = spool.health()
    expect(health.historyGap).toBeNull()
    expect(health.historyGaps).toEqual([])
    expect(health.fetch?.timeouts).toBe(0)
    expect(lines.some((line) => String(line.msg).includes('node unreachable'))).toBe(false)

    // Every block the load made is in the spool with every one of its transactions.
    const stored = new Map(
      (
        await spool.reader.all<{ number: number; tx_count: number; txs: number }>(
          'SELECT b.number, b.tx_count, (SELECT count(*) FROM txs t WHERE t.block_number = b.number) AS txs FROM blocks b WHERE b.number BETWEEN ? AND ?',
          produced[0]!.number,
          last,
        )
      ).map((row) => [row.number, row]),
    )
    for (const block of produced) {
      expect(block.txs).toBe(TXS_PER_BLOCK)
      expect(stored.get(block.number)?.tx_count).toBe(TXS_PER_BLOCK)
      expect(stored.get(block.number)?.txs).toBe(TXS_PER_BLOCK)
    }
  },
  (SECONDS + 60) * 1000,
)
