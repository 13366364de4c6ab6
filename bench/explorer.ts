// bun run bench:explorer [seconds per route] [connections]
//
// Requests per second and latency of the explorer's hottest routes (/stats, /overview, /blocks,
// /txs, /tx/{hash}, /address/{address}) on the seeded dev chain, loaded by wrk from a second
// process, each next to its ceiling measured in the same run: a bare Bun.serve in a process of
// its own returning the same bytes and headers. The explorer runs with its real conventions
// (CORS, the per-client count, a log line per request at the default level, through a buffer
// into a file as the stack's go to its standard output), with the per-client limit raised so
// that the bench measures the work, not the 429s. /tx and /address are measured twice: one record
// asked again and again (the answer cache of a few seconds serves it), and every record of the
// chain in turn with that cache off.
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { devAccounts } from '../src/devnet/accounts.ts'
import { createExplorerApp } from '../src/explorer/app.ts'
import { listen } from '../src/http/serve.ts'
import { silentLogger } from '../src/log.ts'
import { startSpool } from '../src/spool/spool.ts'
import { spoolWiring } from '../src/streams.ts'
import { startDevChain } from '../tests/helpers/devChain.ts'
import { againstCeiling, fileLogger, findWrk, HTTP_COLUMNS, httpCells, printTable, scratchDir } from './harness.ts'

const [seconds = 3, connections = 32] = process.argv.slice(2).map(Number)
findWrk()

const chain = await startDevChain()
try {
  const config = parseConfig(
    `[chain]\nrpc = "${chain.rpcUrl}"\nws = "${chain.wsUrl}"\n[data]\ndir = "${scratchDir('explorer')}"\n` +
      `[explorer]\nport = 0\nrateLimitPerMinute = 1000000000\n`,
    null,
  )
  const spool = await startSpool(config, spoolWiring(config), silentLogger)
  const logs = fileLogger(config.dataDir)
  const context = { config, log: logs.log, chain: createChain({ rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl, chainId: config.chain.chainId }) }
  const explorer = listen(createExplorerApp(context, spool), 'explorer', '127.0.0.1', 0, logs.log)
  const uncached = listen(createExplorerApp(context, spool, { answerCacheMs: 0 }), 'explorer', '127.0.0.1', 0, logs.log)
  const head = await chain.head()
  while (spool.health().streams.explorer?.cursorBlock !== head) await Bun.sleep(50)
  await Bun.sleep(1200) // one stats tick

  // A router swap (a decoded call, logs, a nested trace, token transfers) and a busy account;
  // then every transaction and every account of the chain.
  const get = async <T>(path: string) => (await (await fetch(`${explorer.url}/api${path}`)).json()) as T
  const swap = await get<{ transactions: Array<{ hash: string }> }>(`/address/${chain.manifest.contracts.SwapRouter}`)
  const allTxs = await get<Array<{ hash: string }>>('/txs?limit=100')
  const allAccounts = await get<{ accounts: Array<{ address: string }> }>('/accounts?limit=100')
  const targets: Array<[string, string, string[]]> = [
    ['/stats', explorer.url, ['/api/stats']],
    ['/overview', explorer.url, ['/api/overview']],
    ['/blocks', explorer.url, ['/api/blocks']],
    ['/txs', explorer.url, ['/api/txs']],
    ['/tx/{hash}, one transaction', explorer.url, [`/api/tx/${swap.transactions[0]!.hash}`]],
    [`/tx/{hash}, ${allTxs.length} transactions, no answer cache`, uncached.url, allTxs.map((tx) => `/api/tx/${tx.hash}`)],
    ['/address/{address}, one account', explorer.url, [`/api/address/${devAccounts.alice.address}`]],
    [`/address/{address}, ${allAccounts.accounts.length} accounts, no answer cache`, uncached.url, allAccounts.accounts.map((account) => `/api/address/${account.address}`)],
  ]

  const rows: string[][] = []
  for (const [route, base, paths] of targets) {
    const measured = await againstCeiling(base, paths, { connections, seconds })
    rows.push([route, String(Math.round(measured.bytes)), ...httpCells(measured)])
  }
  printTable(
    `explorer on the seeded dev chain (${head} blocks), wrk from a second process, ${connections} connections, ${seconds} s per route`,
    ['route', 'bytes', ...HTTP_COLUMNS],
    rows,
    [
      'ceiling: a bare Bun.serve in its own process returning the same bytes and headers for the same paths, loaded the same way in the same run',
      `the explorer logs at info, a line per request through a buffer into a file: ${logs.lines().toLocaleString('en')} lines`,
      'each route and its ceiling loaded three times in turn, the best run of each counted',
    ],
  )
  await explorer.stop()
  await uncached.stop()
  await spool.stop()
} finally {
  await chain.stop()
}
