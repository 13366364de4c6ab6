// bun run bench:scale [blocks] [transactions per block]
//
// The stack on a busy chain, as a small testnet operator runs it: the dev chain filled with
// `blocks` blocks of `transactions per block` (value transfers to fresh addresses, a few swaps
// among them), then `stack start` with the default config in a process of its own.
// 1. Ceiling: the node's own time to hand out every block as the spool asks for it (the block
//    with its transactions, its receipts, its traces), one block a request, 1, 2 and 4 in flight.
// 2. Catch-up: a fresh spool to the node's head with every derived stream caught up, against that
//    ceiling; the "node unreachable" lines it logged on the way.
// 3. Restart on the same data: time to the first answer of /api/stats and the memory after it.
// 4. The spool's bytes per transaction.
// 5. Routes at that size under wrk, next to the same routes on the small dev chain, each with
//    its same-run ceiling. Then the figures that miss their targets.
import { statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fillBlocks } from '../tests/helpers/chainLoad.ts'
import { startDevChain, type DevChain } from '../tests/helpers/devChain.ts'
import { againstCeiling, cpuSeconds, findWrk, fmt, freePorts, HTTP_COLUMNS, httpCells, memoryMiB, printTable, runConcurrently, scratchDir, spawnStack, type StackProcess } from './harness.ts'

const [blocks = 300, txsPerBlock = 500] = process.argv.slice(2).map(Number)
const SWAPS_PER_BLOCK = Math.min(3, Math.floor(txsPerBlock / 10))
const CONNECTIONS = 32
const SECONDS = 3
const TARGETS = { ratio: 0.8, unreachable: 0, restartMs: 2000, rssMiB: 300 }
findWrk()

const REGISTRY = resolve(import.meta.dir, '../registry')
// However the bench ends, its nodes, stacks and files go with it.
const work = scratchDir('scale')
const progress = (text: string) => process.stderr.write(`${text}\n`)
const hex = (value: number) => `0x${value.toString(16)}`

type Urls = { explorer: string; exchange: string }

/**
 * A config file for `chain`: the chain, the data folder and free ports, every other key at its
 * default (the registry is this checkout's, as it is for a config file beside it). `loaded` is the config the routes are loaded under: no request lines (warnings only)
 * and no per-client limit, so wrk measures the work and not a log pipe or the 429s.
 */
function writeConfig(name: string, chain: DevChain, dataDir: string, loaded = false): Urls & { file: string } {
  const [explorer, exchange, faucet, arcade] = freePorts(4)
  const file = join(work, `${name}.toml`)
  writeFileSync(
    file,
    [
      `[chain]\nrpc = "${chain.rpcUrl}"\nws = "${chain.wsUrl}"\nchainId = 78270`,
      `[data]\ndir = "${dataDir}"`,
      `[registry]\nsource = "${REGISTRY}"`,
      ...(loaded ? ['[log]\nlevel = "warn"'] : []),
      `[explorer]\nport = ${explorer}${loaded ? '\nrateLimitPerMinute = 1000000000' : ''}`,
      `[exchange]\nport = ${exchange}`,
      `[faucet]\nport = ${faucet}`,
      `[arcade]\nport = ${arcade}`,
    ].join('\n'),
  )
  return { file, explorer: `http://127.0.0.1:${explorer}`, exchange: `http://127.0.0.1:${exchange}` }
}

async function getJson<T>(url: string): Promise<T | null> {
  try {
    const response = await fetch(url)
    return response.status === 200 ? ((await response.json()) as T) : (await response.arrayBuffer(), null)
  } catch {
    return null
  }
}

/** The node alone: every block fetched as the spool asks for it, `width` requests of one block in flight. */
async function nodeCeiling(chain: DevChain, head: number) {
  let txs = 0
  const fetchBlock = async (number: number) => {
    const answers = await chain.rpc.batch([
      { method: 'eth_getBlockByNumber', params: [hex(number), true] },
      { method: 'eth_getBlockReceipts', params: [hex(number)] },
      { method: 'trace_block', params: [hex(number)] },
    ])
    const [block] = answers.map((answer) => {
      if (!answer.ok) throw answer.error
      return answer.value
    }) as [{ transactions: unknown[] }]
    txs += block.transactions.length
  }
  const runs: Array<{ width: number; seconds: number; nodeCpu: number }> = []
  const node = chain.anvil.process.pid
  for (const width of [1, 2, 4]) {
    txs = 0
    const cpuBefore = cpuSeconds(node)
    const { seconds } = await runConcurrently(head + 1, width, fetchBlock)
    runs.push({ width, seconds, nodeCpu: cpuSeconds(node) - cpuBefore })
  }
  return { runs, best: runs.reduce((best, run) => (run.seconds < best.seconds ? run : best)), txs }
}

type Health = { spoolHeadBlock: number | null; streams: Record<'v2' | 'cl', { cursorBlock: number | null }> }
type Stats = { indexedBlock: number | null; derivedLag: number | null; transactions: number }

/**
 * Polls until the spool holds `head` and every derived stream has caught up with it (the
 * exchange's health for the spool and its two streams, read from the spool itself; the
 * explorer's stats for its own), or `deadlineMs` after `from` has passed.
 */
async function waitCaughtUp(urls: Urls, head: number, from: number, deadlineMs: number, atSpoolHead = () => {}) {
  let where = 'no answer yet'
  let told = performance.now()
  let spoolSeconds: number | null = null
  let upSeconds: number | null = null
  for (;;) {
    const health = await getJson<Health>(`${urls.exchange}/health`)
    if (health) {
      upSeconds ??= (performance.now() - from) / 1000
      const { v2, cl } = health.streams
      where = `spool at ${health.spoolHeadBlock}, v2 at ${v2.cursorBlock}, cl at ${cl.cursorBlock} of ${head}`
      if (health.spoolHeadBlock === head && spoolSeconds === null) {
        spoolSeconds = (performance.now() - from) / 1000
        atSpoolHead()
      }
      if (health.spoolHeadBlock === head && v2.cursorBlock === head && cl.cursorBlock === head) {
        // The explorer's stats are a cached object (about 0.6 s) and its limit counts requests.
        const stats = await getJson<Stats>(`${urls.explorer}/api/stats`)
        if (stats?.indexedBlock === head && stats.derivedLag === 0) return { seconds: (performance.now() - from) / 1000, upSeconds, spoolSeconds, where }
        where += `, explorer stream ${stats?.derivedLag ?? '?'} behind`
        await Bun.sleep(250)
      }
    }
    if (performance.now() - from > deadlineMs) return { seconds: null, upSeconds, spoolSeconds, where }
    if (performance.now() - told > 10_000) {
      told = performance.now()
      progress(`  catching up, ${((performance.now() - from) / 1000).toFixed(0)} s: ${where}`)
    }
    await Bun.sleep(100)
  }
}

/** The spool file and its write-ahead log, in bytes. */
function spoolBytes(dataDir: string): number {
  const size = (path: string) => {
    try {
      return statSync(path).size
    } catch {
      return 0
    }
  }
  return size(join(dataDir, 'spool.db')) + size(join(dataDir, 'spool.db-wal'))
}

/** The routes under wrk, each next to its same-run ceiling; one row a route, labelled with the chain. */
async function loadRoutes(urls: Urls, chainLabel: string): Promise<string[][]> {
  const ranked = await getJson<{ accounts: Array<{ address: string; txCount: number }> }>(`${urls.explorer}/api/accounts?limit=1`)
  const busiest = ranked?.accounts[0]
  if (!busiest) throw new Error('the explorer lists no account')
  const routes: Array<[string, string, string]> = [
    ['/api/stats', urls.explorer, '/api/stats'],
    ['/api/accounts', urls.explorer, '/api/accounts'],
    ['/api/txs', urls.explorer, '/api/txs'],
    [`/api/address/{busiest: ${fmt.count(busiest.txCount)} txs}`, urls.explorer, `/api/address/${busiest.address}`],
    ['exchange /pools', urls.exchange, '/pools'],
    ['exchange /swaps', urls.exchange, '/swaps'],
  ]
  const rows: string[][] = []
  for (const [route, base, path] of routes) {
    progress(`  loading ${route} on ${chainLabel}`)
    const measured = await againstCeiling(base, [path], { connections: CONNECTIONS, seconds: SECONDS })
    rows.push([route, chainLabel, String(Math.round(measured.bytes)), ...httpCells(measured)])
  }
  return rows
}

/** Runs `use` with the stack of `configFile` started, and stops it after; gives what `use` gave and the exit code. */
async function withStack<T>(configFile: string, use: (stack: StackProcess) => Promise<T>): Promise<{ value: T; exitCode: number }> {
  const stack = spawnStack(configFile)
  let value: T
  try {
    value = await use(stack)
  } catch (error) {
    await stack.stop()
    throw error
  }
  return { value, exitCode: await stack.stop() }
}

const misses: string[] = []
const miss = (condition: boolean, text: string) => condition && misses.push(text)
let routeRows: string[][] = []
let big: DevChain | null = null
let small: DevChain | null = null
try {
  // The chain.
  progress(`starting the dev chain and filling ${blocks} blocks of ${txsPerBlock} transactions (${SWAPS_PER_BLOCK} swaps each)...`)
  big = await startDevChain()
  let told = 0
  const fill = await fillBlocks(big, {
    blocks,
    txsPerBlock,
    swaps: SWAPS_PER_BLOCK,
    onProgress: ({ blocks: done, seconds }) => {
      if (seconds - told < 10 && done < blocks) return
      told = seconds
      progress(`  ${done} blocks, ${seconds.toFixed(0)} s`)
    },
  })
  const head = await big.head()

  // 1. The node's ceiling.
  progress('fetching every block from the node, 1, 2 and 4 in flight...')
  const ceiling = await nodeCeiling(big, head)
  const totalTxs = ceiling.txs
  printTable(
    `the chain: the seeded dev chain and ${blocks} blocks of ${txsPerBlock} transactions (${SWAPS_PER_BLOCK} swaps a block, the rest value transfers to fresh addresses)`,
    ['measure', 'value'],
    [
      ['blocks (whole chain)', fmt.count(head + 1)],
      ['transactions (whole chain)', fmt.count(totalTxs)],
      ['fresh addresses', fmt.count(fill.recipients)],
      ['fill, s', fill.seconds.toFixed(1)],
      ['fill, transactions/s', fmt.count(fill.txsPerSecond)],
    ],
  )
  printTable(
    'ceiling: the node alone, each block as the spool asks for it (eth_getBlockByNumber with transactions, eth_getBlockReceipts, trace_block in one batch)',
    ['in flight', 'seconds', 'blocks/s', 'transactions/s', 'node CPU s'],
    ceiling.runs.map(({ width, seconds, nodeCpu }) => [String(width), seconds.toFixed(2), fmt.count((head + 1) / seconds), fmt.count(totalTxs / seconds), nodeCpu.toFixed(1)]),
  )

  // 2. Catch-up with the default config, from a fresh spool.
  const dataDir = join(work, 'data')
  const plain = writeConfig('default', big, dataDir)
  const deadlineMs = Math.min(600_000, Math.max(60_000, ceiling.best.seconds * 5000))
  progress(`catch-up of a fresh spool with the default config (deadline ${(deadlineMs / 1000).toFixed(0)} s)...`)
  const nodeCpuBefore = cpuSeconds(big.anvil.process.pid)
  const catchUp = await withStack(plain.file, async (stack) => {
    // CPU seconds of the node and of the stack from the spawn to the spool at the head: the copy.
    let cpu: { node: number; stack: number } | null = null
    const caught = await waitCaughtUp(plain, head, stack.spawnedAt, deadlineMs, () => {
      cpu = { node: cpuSeconds(big!.anvil.process.pid) - nodeCpuBefore, stack: cpuSeconds(stack.pid) }
    })
    return {
      ...caught,
      cpu: cpu as { node: number; stack: number } | null,
      unreachable: stack.count(/unreachable/i, true),
      retries: stack.count(/trying again|retrying/i, true),
      problems: stack.problems.slice(),
    }
  })

  // The spool's size once the stack has stopped: the stop folds its write-ahead log into the file
  // (while it runs, the log holds up to 64 MiB of pages that are also in the file).
  const bytes = spoolBytes(dataDir)

  // 3. Restart on the same data, the same config.
  progress('restart on the same data...')
  const restart = await withStack(plain.file, async (stack) => {
    const ms = await stack.firstAnswer(`${plain.explorer}/api/stats`)
    return { ms, rss: memoryMiB(stack.pid) }
  })

  // 5. The routes at this size (once the spool has it all), then on the small dev chain.
  const caughtUp = catchUp.value.seconds !== null
  if (caughtUp) {
    progress('routes at this size...')
    const loaded = writeConfig('loaded', big, dataDir, true)
    const run = await withStack(loaded.file, async (stack) => {
      await stack.firstAnswer(`${loaded.exchange}/health`)
      await waitCaughtUp(loaded, head, performance.now(), 60_000)
      const rows = await loadRoutes(loaded, `${blocks}×${txsPerBlock}`)
      return { rows, peak: memoryMiB(stack.pid, 'VmHWM') }
    })
    routeRows = run.value.rows
    progress(`  peak memory of the loaded stack: ${run.value.peak.toFixed(0)} MiB`)
  }
  await big.stop()
  big = null

  progress('routes on the small dev chain...')
  small = await startDevChain()
  const smallHead = await small.head()
  const smallDir = join(work, 'small')
  const smallConfig = writeConfig('small', small, smallDir, true)
  const smallRun = await withStack(smallConfig.file, async (stack) => {
    const caught = await waitCaughtUp(smallConfig, smallHead, stack.spawnedAt, 60_000)
    if (caught.seconds === null) throw new Error(`the stack did not catch up with the small dev chain: ${caught.where}`)
    return loadRoutes(smallConfig, `dev chain, ${smallHead + 1} blocks`)
  })
  // Each route at this size above the same route on the small chain.
  routeRows = smallRun.value.flatMap((row, index) => (routeRows[index] ? [routeRows[index]!, row] : [row]))

  // The figures.
  const { seconds, upSeconds, spoolSeconds, where, unreachable, retries, problems, cpu } = catchUp.value
  // The ceiling fetches; the spool fetches and writes: the ratio compares the copy, from the
  // process's spawn to the spool at the node's head. Deriving the streams is work the ceiling
  // does not do, shown beside it.
  const ratio = spoolSeconds === null ? null : ceiling.best.seconds / spoolSeconds
  const distinct = [...new Set(problems)].map((problem) => `${problem} (${problems.filter((seen) => seen === problem).length}×${problems.length >= 50 ? ' or more' : ''})`)
  printTable(
    `the stack with the default config: catch-up of a fresh spool to block ${head}, restart, size`,
    ['measure', 'value', 'target'],
    [
      ['copy: spawn to the spool at the head, s', spoolSeconds === null ? `did not catch up in ${(deadlineMs / 1000).toFixed(0)} s (${where})` : spoolSeconds.toFixed(2), ''],
      ['  of which to the first answer of the exchange /health, s', upSeconds === null ? '-' : upSeconds.toFixed(2), ''],
      ['copy, blocks/s', spoolSeconds === null ? '' : fmt.count((head + 1) / spoolSeconds), ''],
      ['copy, transactions/s', spoolSeconds === null ? '' : fmt.count(totalTxs / spoolSeconds), ''],
      [`node ceiling, s (best: ${ceiling.best.width} in flight)`, ceiling.best.seconds.toFixed(2), ''],
      ['ratio: ceiling s / copy s', ratio === null ? '-' : ratio.toFixed(2), `≥ ${TARGETS.ratio}`],
      ['CPU during the ceiling: node, s', ceiling.best.nodeCpu.toFixed(1), ''],
      ['CPU during the copy: node, stack, s', cpu === null ? '-' : `${cpu.node.toFixed(1)}, ${cpu.stack.toFixed(1)}`, ''],
      ['every derived stream at the head too, s', seconds === null ? '-' : seconds.toFixed(2), ''],
      ['"node unreachable" log lines during catch-up', String(unreachable), String(TARGETS.unreachable)],
      ['retry warnings during catch-up (any cause)', String(retries), ''],
      ['exit code of the clean stops', `${catchUp.exitCode}, ${restart.exitCode}`, '0'],
      ['restart: ms to the first answer of /api/stats', restart.value.ms.toFixed(0), `< ${TARGETS.restartMs}`],
      ['restart: VmRSS after that answer, MiB', restart.value.rss.toFixed(0), `< ${TARGETS.rssMiB}`],
      ['spool file after the clean stop (with its -wal, if any), MiB', (bytes / 1024 / 1024).toFixed(1), ''],
      ['spool bytes per transaction', (bytes / totalTxs).toFixed(0), ''],
    ],
    [
      'the copy includes the start-up, so the ratio means something only at hundreds of full blocks; while the spool catches up the derived streams take one short pass every 15 s, and catch up after it',
      `CPU: the node's and the stack's own (every thread, user and system), from /proc; the machine has ${navigator.hardwareConcurrency} cores, which the node and the stack share during the copy`,
      ...(distinct.length > 0 ? ['warnings and errors logged during catch-up:', ...distinct.map((line) => `  ${line}`)] : []),
    ],
  )
  printTable(
    `routes under wrk from a second process, ${CONNECTIONS} connections, ${SECONDS} s each, at ${blocks}×${txsPerBlock} and on the small dev chain`,
    ['route', 'chain', 'bytes', ...HTTP_COLUMNS],
    routeRows,
    [
      'the stack runs with log.level = "warn" and the explorer\'s per-client limit off; every other key at its default',
      'ceiling: a bare Bun.serve in its own process returning the same bytes and headers, loaded the same way in the same run',
      'each route and its ceiling loaded three times in turn, the best run of each counted',
      ...(caughtUp ? [] : ['no rows at size: the spool did not catch up']),
    ],
  )

  miss(seconds === null, `catch-up: did not catch up within ${(deadlineMs / 1000).toFixed(0)} s (${where})`)
  miss(ratio !== null && ratio < TARGETS.ratio, `catch-up: ratio ${ratio?.toFixed(2)} < ${TARGETS.ratio}`)
  miss(unreachable > TARGETS.unreachable, `catch-up: ${unreachable} "node unreachable" lines (target ${TARGETS.unreachable})`)
  miss(catchUp.exitCode !== 0 || restart.exitCode !== 0, `stop: exit codes ${catchUp.exitCode}, ${restart.exitCode} (target 0)`)
  miss(restart.value.ms >= TARGETS.restartMs, `restart: ${restart.value.ms.toFixed(0)} ms to the first answer (target < ${TARGETS.restartMs})`)
  miss(restart.value.rss >= TARGETS.rssMiB, `restart: ${restart.value.rss.toFixed(0)} MiB resident (target < ${TARGETS.rssMiB})`)
  console.log(misses.length === 0 ? '\nevery figure meets its target' : `\nmissed targets:\n${misses.map((line) => `  ${line}`).join('\n')}`)
} finally {
  await big?.stop()
  await small?.stop()
}
