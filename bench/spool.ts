// bun run bench:spool [blocks] [transfers per block] [swaps per block]
//
// Fills a real anvil with blocks of ERC-20 transfers and constant-product swaps, then measures
// the spool's backfill of them (blocks/s, logs/s, SQLite bytes per log) against a ceiling
// measured in the same run: a plain bun:sqlite insert loop of the same number of log rows.
import { Database } from 'bun:sqlite'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, erc20Abi, parseEther, type Address } from 'viem'
import { parseConfig } from '../src/config/load.ts'
import { devAccounts } from '../src/devnet/accounts.ts'
import { uniswap } from '../src/devnet/artifacts.ts'
import { silentLogger } from '../src/log.ts'
import { openSpool } from '../src/spool/db.ts'
import { fetchBlocks, type BlockBundle, type Capabilities } from '../src/spool/fetchBlocks.ts'
import { startSpool } from '../src/spool/spool.ts'
import { spoolWiring } from '../src/streams.ts'
import { prepare, writeBatch } from '../src/spool/store.ts'
import { startDevChain } from '../tests/helpers/devChain.ts'
import { fmt, printTable } from './harness.ts'

const [blocks = 1000, transfersPerBlock = 20, swapsPerBlock = 5] = process.argv.slice(2).map(Number)

const chain = await startDevChain()
const { rpc } = chain
const hex = (value: number | bigint) => `0x${value.toString(16)}`

try {
  const { BX } = chain.manifest.contracts
  const pair = chain.seed!.v2Pairs[0]! // BX/WETH
  const bxIsToken0 = (await chain.read<Address>(pair, uniswap.UniswapV2Pair.abi, 'token0')).toLowerCase() === BX.toLowerCase()

  // Fill: automine off, a block's transactions sent with explicit nonces, then one block mined.
  process.stderr.write(`filling ${blocks} blocks of ${transfersPerBlock} transfers and ${swapsPerBlock} swaps...\n`)
  await chain.test.setAutomine(false)
  const sender = devAccounts.treasury.address
  let nonce = await chain.clients.publicClient.getTransactionCount({ address: sender, blockTag: 'pending' })
  const fillStarted = performance.now()
  const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
  // A tiny swap with a generous margin: the exact output moves with every swap in the block.
  const swapData = encodeFunctionData({
    abi: uniswap.UniswapV2Pair.abi,
    functionName: 'swap',
    args: bxIsToken0 ? [0n, 1_000_000_000n, sender, '0x'] : [1_000_000_000n, 0n, sender, '0x'],
  })
  for (let block = 0; block < blocks; block++) {
    const calls = []
    for (let index = 0; index < transfersPerBlock; index++) {
      const to = [devAccounts.alice, devAccounts.bob, devAccounts.carol][index % 3]!.address
      calls.push({ to: BX, data: transfer(to, 1000n + BigInt(index)) })
    }
    for (let index = 0; index < swapsPerBlock; index++) {
      calls.push({ to: BX, data: transfer(pair, parseEther('1')) })
      calls.push({ to: pair, data: swapData })
    }
    const answers = await rpc.batch(calls.map((call) => ({ method: 'eth_sendTransaction', params: [{ from: sender, ...call, nonce: hex(nonce++), gas: hex(200_000) }] })))
    for (const answer of answers) if (!answer.ok) throw answer.error
    await chain.test.mine({ blocks: 1 })
  }
  process.stderr.write(`filled in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s\n`)
  const head = await chain.head()

  // 1. The node alone: every block fetched as the spool fetches it, nothing written.
  const numbers = Array.from({ length: head + 1 }, (_, number) => number)
  const batches: number[][] = []
  for (let from = 0; from <= head; from += 100) batches.push(numbers.slice(from, from + 100))
  const caps: Capabilities = { blockReceipts: null, traces: null }
  const fetchStarted = performance.now()
  const bundles: BlockBundle[] = []
  for (let at = 0; at < batches.length; at += 4) {
    const fetched = await Promise.all(batches.slice(at, at + 4).map((batch) => fetchBlocks(rpc, batch, caps)))
    for (const list of fetched) bundles.push(...(list as BlockBundle[]))
  }
  const fetchSeconds = (performance.now() - fetchStarted) / 1000

  // 2. SQLite alone: the same bundles written by the spool's own write path.
  const dir = mkdtempSync(join(tmpdir(), 'stack-bench-spool-'))
  const writeDb = openSpool(join(dir, 'write-only.db'))
  const statements = prepare(writeDb)
  const writeStarted = performance.now()
  for (let at = 0; at < bundles.length; at += 100) writeBatch(writeDb, statements, bundles.slice(at, at + 100))
  const writeSeconds = (performance.now() - writeStarted) / 1000
  const logsBytes = writeDb.query<{ bytes: number }, []>("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'logs%'").get()?.bytes ?? 0
  writeDb.close()

  // 3. The whole spool, through its worker: fetch, write, follow.
  const config = parseConfig(`[chain]\nrpc = "${chain.rpcUrl}"\nws = "${chain.wsUrl}"\n[data]\ndir = "${dir}"\n`, null)
  const started = performance.now()
  const spool = await startSpool(config, spoolWiring(config), silentLogger, { fresh: true })
  while (spool.health().spoolHeadBlock !== head) await Bun.sleep(5)
  const seconds = (performance.now() - started) / 1000
  const count = (sql: string) => spool.reader.query<{ n: number }, []>(sql).get()!.n
  const logs = count('SELECT count(*) AS n FROM logs')
  const txs = count('SELECT count(*) AS n FROM txs')
  await spool.stop()
  const checkpoint = new Database(join(dir, 'spool.db'))
  checkpoint.run('PRAGMA wal_checkpoint(TRUNCATE)')
  checkpoint.close()
  const bytes = statSync(join(dir, 'spool.db')).size

  // The SQLite ceiling: the same number of log rows into a bare table, 5000 per transaction.
  const ceilingPath = join(dir, 'ceiling.db')
  const ceiling = new Database(ceilingPath, { create: true })
  ceiling.run('PRAGMA journal_mode = WAL')
  ceiling.run('PRAGMA synchronous = NORMAL')
  ceiling.run('CREATE TABLE logs (tx_id INTEGER, log_index INTEGER, block_number INTEGER, address BLOB, topic0 BLOB, topic1 BLOB, topic2 BLOB, topic3 BLOB, data BLOB)')
  const insert = ceiling.prepare('INSERT INTO logs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
  const address = new Uint8Array(20).fill(7)
  const topic = new Uint8Array(32).fill(9)
  const data = new Uint8Array(64).fill(3)
  const ceilingStarted = performance.now()
  for (let done = 0; done < logs; done += 5000) {
    ceiling.transaction(() => {
      for (let index = done; index < Math.min(done + 5000, logs); index++) insert.run(index, index % 7, index >> 4, address, topic, topic, topic, null, data)
    })()
  }
  const ceilingSeconds = (performance.now() - ceilingStarted) / 1000
  ceiling.close()
  rmSync(dir, { recursive: true, force: true })

  const perSecond = (count: number, seconds: number) => fmt.count(count / seconds)
  const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`
  printTable(`spool bench: ${blocks} blocks of ${transfersPerBlock} transfers and ${swapsPerBlock} swaps on the seeded dev chain`, ['measure', 'value'], [
    ['blocks (whole chain)', String(head + 1)],
    ['transactions', String(txs)],
    ['logs', String(logs)],
    ['node only: fetch, blocks/s (ceiling of the node)', perSecond(head + 1, fetchSeconds)],
    ['SQLite only: spool write path, logs/s', perSecond(logs, writeSeconds)],
    ['SQLite only: plain insert loop, logs/s (ceiling)', perSecond(logs, ceilingSeconds)],
    ['spool write path as a share of the plain loop', share(ceilingSeconds, writeSeconds)],
    ['spool end to end, s', seconds.toFixed(2)],
    ['spool end to end, blocks/s', perSecond(head + 1, seconds)],
    ['spool end to end, transactions/s', perSecond(txs, seconds)],
    ['spool end to end, logs/s', perSecond(logs, seconds)],
    ['spool end to end as a share of the node fetch', share(fetchSeconds, seconds)],
    ['bytes per log, logs table and its indexes', (logsBytes / logs).toFixed(0)],
    ['bytes per log, whole file (blocks, txs, traces too)', (bytes / logs).toFixed(0)],
  ])
} finally {
  await chain.stop()
}
