// bun run bench:spool [blocks] [transfers per block] [swaps per block]
//
// Fills a real anvil with blocks of ERC-20 transfers and constant-product swaps, then measures
// the spool's backfill of them (blocks/s, logs/s, bytes per transaction) and its write path
// against ceilings measured in the same run: the node's own fetch of the same blocks, and a
// plain bun:sqlite insert loop writing the same rows (blocks, mini-blocks, transactions, logs,
// traces, read back from the spool) into the same tables without their secondary indexes, in
// transactions of the same blocks.
import { Database, type SQLQueryBindings } from 'bun:sqlite'
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { encodeFunctionData, erc20Abi, parseEther, type Address } from 'viem'
import { parseConfig } from '../src/config/load.ts'
import { devAccounts } from '../src/devnet/accounts.ts'
import { uniswap } from '../src/devnet/artifacts.ts'
import { silentLogger } from '../src/log.ts'
import { openSpool, tuneForWriting } from '../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../src/spool/sqlite/engine.ts'
import { fetchBlocks, type BlockBundle, type Capabilities } from '../src/spool/fetchBlocks.ts'
import { startSpool } from '../src/spool/spool.ts'
import { spoolWiring } from '../src/streams.ts'
import { writeBatch } from '../src/spool/store.ts'
import { startDevChain } from '../tests/helpers/devChain.ts'
import { fmt, printTable, scratchDir } from './harness.ts'

const [blocks = 1000, transfersPerBlock = 20, swapsPerBlock = 5] = process.argv.slice(2).map(Number)
/** How often the write path and its ceiling are each measured; the best of each counts. */
const TRIALS = 3
/** The most blocks the follower writes in one transaction while catching up. */
const WRITE_BLOCKS = 100

/** The spool's own tables, whose rows the plain loop writes again. */
const SPOOL_TABLES = ['blocks', 'minis', 'txs', 'logs', 'traces']

/**
 * The ceiling of the write path: every row of the spool's own tables in `from`, read back as
 * stored, written by a plain insert loop into `path`, whose tables have the same columns and
 * primary keys but no other index (no UNIQUE, no secondary index), in transactions of the same
 * WRITE_BLOCKS blocks. Gives the seconds the inserts took and the bytes of the stored traces.
 * `withIndexes`: the tables exactly as the spool makes them, UNIQUE and secondary indexes
 * included, which tells the cost of the indexes from the cost of turning the node's JSON into rows.
 */
function plainInsertLoop(from: Database, path: string, withIndexes = false): { seconds: number; traceBytes: number } {
  const plain = new Database(path, { create: true })
  tuneForWriting(plain)
  // Each table's block, and its primary key's order (the order the spool wrote them in).
  const byBlock: Record<string, string> = { blocks: 'number', minis: 'block_number', txs: 'block_number', logs: 'block_number', traces: 'tx_id >> 20' }
  const order: Record<string, string> = { blocks: 'number', minis: 'number', txs: 'id', logs: 'tx_id, log_index', traces: 'tx_id' }
  const rows = new Map<string, SQLQueryBindings[][]>()
  const inserts = new Map<string, ReturnType<Database['prepare']>>()
  for (const table of SPOOL_TABLES) {
    // The table as the spool made it, without UNIQUE: the same columns, types and primary key.
    const sql = from.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)!.sql
    plain.run(withIndexes ? sql : sql.replace(/\s+UNIQUE/g, ''))
    if (withIndexes) {
      const indexes = from.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table)
      for (const index of indexes) plain.run(index.sql)
    }
    const columns = from
      .query<{ name: string }, []>(`PRAGMA table_info(${table})`)
      .all()
      .map((column) => column.name)
    rows.set(table, from.query(`SELECT ${byBlock[table]} AS block, ${columns.join(', ')} FROM ${table} ORDER BY ${order[table]}`).values() as SQLQueryBindings[][])
    inserts.set(table, plain.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`))
  }
  const traceBytes = from.query<{ bytes: number }, []>('SELECT sum(length(trace)) AS bytes FROM traces').get()!.bytes ?? 0
  const last = Math.max(...[...rows.values()].flatMap((list) => list.map((row) => Number(row[0]))))
  const started = performance.now()
  const next = new Map(SPOOL_TABLES.map((table) => [table, 0]))
  for (let first = 0; first <= last; first += WRITE_BLOCKS) {
    plain.transaction(() => {
      for (const table of SPOOL_TABLES) {
        const list = rows.get(table)!
        const insert = inserts.get(table)!
        let at = next.get(table)!
        for (; at < list.length && Number(list[at]![0]) < first + WRITE_BLOCKS; at++) insert.run(...list[at]!.slice(1))
        next.set(table, at)
      }
    })()
  }
  const seconds = (performance.now() - started) / 1000
  plain.close()
  return { seconds, traceBytes }
}

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

  // 2. SQLite alone: the same bundles written by the spool's own write path, as many blocks to a
  // transaction as the follower writes at most (100), and the same rows by a plain insert loop;
  // each TRIALS times, in turn, into a new file, the best of each kept (the machine's noise is
  // larger than the difference measured).
  const dir = scratchDir('spool')
  let writeSeconds = Number.POSITIVE_INFINITY
  let plain = { seconds: Number.POSITIVE_INFINITY, traceBytes: 0 }
  let indexed = Number.POSITIVE_INFINITY
  let logsBytes = 0
  for (let trial = 0; trial < TRIALS; trial++) {
    const writeDb = openSpool(join(dir, `write-only-${trial}.db`))
    const writer = sqliteWriter(writeDb)
    const writeStarted = performance.now()
    for (let at = 0; at < bundles.length; at += WRITE_BLOCKS) await writeBatch(writer, bundles.slice(at, at + WRITE_BLOCKS))
    writeSeconds = Math.min(writeSeconds, (performance.now() - writeStarted) / 1000)
    logsBytes = writeDb.query<{ bytes: number }, []>("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'logs%'").get()?.bytes ?? 0
    const loop = plainInsertLoop(writeDb, join(dir, `plain-${trial}.db`))
    if (loop.seconds < plain.seconds) plain = loop
    indexed = Math.min(indexed, plainInsertLoop(writeDb, join(dir, `indexed-${trial}.db`), true).seconds)
    writeDb.close()
  }

  // 3. The whole spool, through its worker: fetch, write, follow.
  const config = parseConfig(`[chain]\nrpc = "${chain.rpcUrl}"\nws = "${chain.wsUrl}"\n[data]\ndir = "${dir}"\n`, null)
  const started = performance.now()
  const spool = await startSpool(config, spoolWiring(config), silentLogger, { fresh: true })
  while (spool.health().spoolHeadBlock !== head) await Bun.sleep(5)
  const seconds = (performance.now() - started) / 1000
  const count = async (sql: string) => (await spool.reader.get<{ n: number }>(sql))!.n
  const logs = await count('SELECT count(*) AS n FROM logs')
  const txs = await count('SELECT count(*) AS n FROM txs')
  await spool.stop()
  const checkpoint = new Database(join(dir, 'spool.db'))
  checkpoint.run('PRAGMA wal_checkpoint(TRUNCATE)')
  checkpoint.close()
  const bytes = statSync(join(dir, 'spool.db')).size

  rmSync(dir, { recursive: true, force: true })

  const perSecond = (count: number, seconds: number) => fmt.count(count / seconds)
  const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`
  printTable(
    `spool bench: ${blocks} blocks of ${transfersPerBlock} transfers and ${swapsPerBlock} swaps on the seeded dev chain`,
    ['measure', 'value'],
    [
      ['blocks (whole chain)', String(head + 1)],
      ['transactions', String(txs)],
      ['logs', String(logs)],
      ['node only: fetch, blocks/s (ceiling of the node)', perSecond(head + 1, fetchSeconds)],
      ['SQLite only: spool write path, transactions/s', perSecond(txs, writeSeconds)],
      ['SQLite only: spool write path, logs/s', perSecond(logs, writeSeconds)],
      ['SQLite only: plain insert loop of the same rows without secondary indexes, transactions/s (ceiling)', perSecond(txs, plain.seconds)],
      ['spool write path as a share of the plain loop', share(plain.seconds, writeSeconds)],
      ["SQLite only: the same plain loop into the spool's own tables, UNIQUE and secondary indexes included, transactions/s", perSecond(txs, indexed)],
      ['spool write path as a share of that loop (the rest: the node JSON turned into rows)', share(indexed, writeSeconds)],
      ['spool end to end, s', seconds.toFixed(2)],
      ['spool end to end, blocks/s', perSecond(head + 1, seconds)],
      ['spool end to end, transactions/s', perSecond(txs, seconds)],
      ['spool end to end, logs/s', perSecond(logs, seconds)],
      ['spool end to end as a share of the node fetch', share(fetchSeconds, seconds)],
      ['bytes per log, logs table and its indexes', (logsBytes / logs).toFixed(0)],
      ['bytes per log, whole file (blocks, txs, traces too)', (bytes / logs).toFixed(0)],
      ['bytes per transaction, whole file', (bytes / txs).toFixed(0)],
      ['bytes per transaction of the call traces', (plain.traceBytes / txs).toFixed(0)],
    ],
  )
} finally {
  await chain.stop()
}
