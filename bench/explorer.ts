// bun run bench:explorer [seconds per route] [connections]
//
// Requests per second and p99 latency of the explorer's hottest routes (/stats, /overview,
// /tx/{hash}, /address/{address}) on the seeded dev chain, against a ceiling measured in the same
// run: a bare Bun.serve answering a fixed body of the size of /stats. The load comes from a second
// process (this file run with --load), so the generator does not share the event loop it measures.
// The explorer runs with its real conventions (CORS, logging at level silent, the request
// counter), with the per-client limit raised so that the bench measures the work, not the 429s.
// /tx and /address are measured twice: one record asked again and again (the answer cache of a
// few seconds serves it), and every record of the chain in turn with that cache off.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

if (process.argv[2] === '--load') {
  const urls = readFileSync(process.argv[3]!, 'utf8').trim().split('\n')
  await load(urls, Number(process.argv[4]), Number(process.argv[5]))
  process.exit(0)
}

/**
 * The load generator: `connections` loops requesting the URLs in turn for `seconds`; prints one
 * JSON line.
 */
async function load(urls: string[], seconds: number, connections: number): Promise<void> {
  let next = 0
  const latencies: number[] = []
  let failures = 0
  const until = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const url = urls[next++ % urls.length]!
        const at = performance.now()
        const response = await fetch(url)
        await response.arrayBuffer()
        if (response.status !== 200) failures++
        latencies.push(performance.now() - at)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0
  console.log(JSON.stringify({ requests: latencies.length, perSecond: latencies.length / elapsed, p99, failures }))
}

const { startAnvil } = await import('../src/chain/anvil.ts')
const { createRpc } = await import('../src/chain/rpc.ts')
const { createChain } = await import('../src/chain/client.ts')
const { parseConfig } = await import('../src/config/load.ts')
const { devAccounts } = await import('../src/devnet/accounts.ts')
const { deployContracts, devClients } = await import('../src/devnet/deploy.ts')
const { seedActivity } = await import('../src/devnet/seed.ts')
const { createExplorerApp } = await import('../src/explorer/app.ts')
const { listen } = await import('../src/http/serve.ts')
const { silentLogger } = await import('../src/log.ts')
const { startSpool } = await import('../src/spool/spool.ts')
const { spoolWiring } = await import('../src/streams.ts')

const [seconds = 3, connections = 32] = process.argv.slice(2).map(Number)

const anvil = await startAnvil({ port: 0 })
try {
  const clients = devClients(anvil.rpcUrl)
  const manifest = await deployContracts(clients, { faucetDripEth: '1', faucetDripBx: '100' })
  await seedActivity(clients, manifest, { faucetFundEth: '1000', faucetFundBx: '1000000' })
  const config = parseConfig(
    `[chain]\nrpc = "${anvil.rpcUrl}"\nws = "${anvil.wsUrl}"\n[data]\ndir = "${mkdtempSync(join(tmpdir(), 'stack-bench-explorer-'))}"\n` +
      `[log]\nlevel = "silent"\n[explorer]\nport = 0\nrateLimitPerMinute = 1000000000\n`,
    null,
  )
  const spool = await startSpool(config, spoolWiring(config), silentLogger)
  const chain = createChain({ rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, chainId: config.chain.chainId })
  const context = { config, log: silentLogger, chain }
  const explorer = listen(createExplorerApp(context, spool), 'explorer', '127.0.0.1', 0)
  const uncached = listen(createExplorerApp(context, spool, { answerCacheMs: 0 }), 'explorer', '127.0.0.1', 0)
  const rpc = createRpc(anvil.rpcUrl)
  const head = Number.parseInt(await rpc.call<string>('eth_blockNumber'), 16)
  while (spool.health().streams.explorer?.cursorBlock !== head) await Bun.sleep(50)
  await Bun.sleep(1200) // one stats tick

  // The ceiling: a bare Bun.serve with a fixed body as large as the /stats answer.
  const statsBody = await (await fetch(`${explorer.url}/api/stats`)).text()
  const ceiling = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(statsBody, { headers: { 'content-type': 'application/json' } }) })

  // A router swap (a decoded call, logs, a nested trace, token transfers) and a busy account;
  // then every transaction and every account of the chain.
  const swap = (await (await fetch(`${explorer.url}/api/address/${manifest.contracts.SwapRouter}`)).json()) as { transactions: Array<{ hash: string }> }
  const allTxs = (await (await fetch(`${explorer.url}/api/txs?limit=100`)).json()) as Array<{ hash: string }>
  const allAccounts = (await (await fetch(`${explorer.url}/api/accounts?limit=100`)).json()) as { accounts: Array<{ address: string }> }
  const targets: Array<[string, string[]]> = [
    ['Bun.serve, fixed body (ceiling)', [`http://127.0.0.1:${ceiling.port}/`]],
    ['/stats', [`${explorer.url}/api/stats`]],
    ['/overview', [`${explorer.url}/api/overview`]],
    ['/tx/{hash}, one transaction', [`${explorer.url}/api/tx/${swap.transactions[0]!.hash}`]],
    [`/tx/{hash}, ${allTxs.length} transactions, no answer cache`, allTxs.map((tx) => `${uncached.url}/api/tx/${tx.hash}`)],
    ['/address/{address}, one account', [`${explorer.url}/api/address/${devAccounts.alice.address}`]],
    [`/address/{address}, ${allAccounts.accounts.length} accounts, no answer cache`, allAccounts.accounts.map((account) => `${uncached.url}/api/address/${account.address}`)],
  ]
  const urlFile = join(config.dataDir, 'urls.txt')

  const rows: Array<{ route: string; perSecond: number; p99: number; failures: number }> = []
  for (const [route, urls] of targets) {
    writeFileSync(urlFile, urls.join('\n'))
    const child = Bun.spawn([process.execPath, import.meta.path, '--load', urlFile, String(seconds), String(connections)], { stdout: 'pipe', stderr: 'inherit' })
    const output = await new Response(child.stdout).text()
    await child.exited
    const result = JSON.parse(output.trim().split('\n').at(-1)!) as { perSecond: number; p99: number; failures: number }
    rows.push({ route, ...result })
  }

  const top = rows[0]!.perSecond
  console.log(`\nexplorer on the seeded dev chain (${head} blocks), ${connections} connections, ${seconds} s per route, load from a second process\n`)
  console.log('| route | requests/s | p99 ms | of the ceiling |')
  console.log('|---|---|---|---|')
  for (const row of rows) {
    const failures = row.failures > 0 ? ` (${row.failures} not 200)` : ''
    console.log(`| ${row.route} | ${Math.round(row.perSecond).toLocaleString('en')}${failures} | ${row.p99.toFixed(2)} | ${(row.perSecond / top).toFixed(2)} |`)
  }
  ceiling.stop(true)
  await explorer.stop()
  await uncached.stop()
  await spool.stop()
} finally {
  await anvil.stop()
}
