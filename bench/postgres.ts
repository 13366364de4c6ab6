// bun run bench:postgres [blocks] [seconds per route] [connections]
//
// The spool on PostgreSQL beside the embedded file, over the same synthetic chain, in one run:
//
// 1. The copy `stack db import` makes into an empty schema, in rows per second, beside the
//    embedded engine doing the same work: the same rows read from the spool and inserted in the
//    same batches into a fresh SQLite file of the same tables, in one transaction.
// 2. The Etherscan-compatible listener's reads over each engine, loaded by wrk from a second
//    process: txlist's first and a later page, tokentx, getLogs by address and a block's reward;
//    each engine's req/s and p99, and PostgreSQL's over SQLite's, with the bare Bun.serve ceiling
//    of the same bytes in the same run; PostgreSQL read as the engine reads (Bun.sql, its
//    statements prepared), and without prepared statements (`database.prepare = false`).
// 3. Derivation: every derived stream with work on this chain, from its first log to the head,
//    on each engine, the passes the follower runs; per second, and PostgreSQL's over SQLite's.
// 4. /api/blocks, /api/txs and /pools over the derived tables of each engine, every answer made
//    anew, under wrk: req/s and p99, and PostgreSQL's over SQLite's, prepared and not.
//
// The chain: blocks of 100 transactions, every other one a token transfer with its Transfer log
// to or from the address the reads ask for, the rest swaps (Sync and Swap, or a concentrated
// pool's Swap) on 20 pairs and 20 pools the configured factories created in block 0. The server is
// Debian's PostgreSQL, started for the bench in a temporary folder (as the tests start theirs),
// with fsync off like the embedded engine's synchronous = NORMAL: neither waits for the disk.

import { SQL } from 'bun'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { createEtherscanApp } from '../src/etherscan/app.ts'
import { createExchangeApp } from '../src/exchange/app.ts'
import { clEvents, v2Events } from '../src/exchange/events.ts'
import { createExplorerApp } from '../src/explorer/app.ts'
import { listen } from '../src/http/serve.ts'
import { closeSpool, openReader, openSpool } from '../src/spool/sqlite/db.ts'
import { sqliteDb, sqliteWriter } from '../src/spool/sqlite/engine.ts'
import type { SpoolDb } from '../src/spool/engine.ts'
import { connectPostgres } from '../src/spool/postgres/connect.ts'
import { COPIED_TABLES, copySpoolToPostgres, primaryKeyOf } from '../src/spool/postgres/importSqlite.ts'
import { migratePostgres } from '../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../src/spool/postgres/migrations.ts'
import { postgresDb } from '../src/spool/postgres/reader.ts'
import { postgresStreamMigrations } from '../src/spool/postgres/streamTables.ts'
import { postgresWriter } from '../src/spool/postgres/writer.ts'
import type { Spool } from '../src/spool/spool.ts'
import { writeBatch } from '../src/spool/store.ts'
import { runPass } from '../src/spool/streams.ts'
import { createStreams } from '../src/streams.ts'
import { fixedSpool } from '../tests/helpers/fixedSpool.ts'
import { startPostgresServer } from '../tests/helpers/postgresServer.ts'
import { syntheticBundle, type SyntheticTx } from '../tests/helpers/spoolBlocks.ts'
import { ROOT } from '../tests/helpers/stack.ts'
import { atExit, fileLogger, findWrk, fmt, HTTP_COLUMNS, httpCells, printTable, scratchDir, sideBySide } from './harness.ts'

const [blockCount = 1000, seconds = 3, connections = 4] = process.argv.slice(2).map(Number)
/**
 * Each route is loaded this many times on each engine, the engines in turn within a trial, and
 * the best of each counts: with three, a ratio still moved by a third from run to run.
 */
const TRIALS = 5
findWrk()

const PER_BLOCK = 100
const BLOCKS_PER_WRITE = 50
const ADDRESS: Hex = `0x${'a1'.repeat(20)}`
const TOKEN: Hex = `0x${'70'.repeat(20)}`
const TRANSFER: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const word = (value: string): Hex => `0x${value.padStart(64, '0')}`
const other = (n: number): Hex => `0x${(1 + (n % 997)).toString(16).padStart(40, '0')}`

const exchange = parseConfig('', null).exchange
const PAIRS = 20
const POOLS = 20
const pairAddress = (n: number): Hex => `0x${(0xb2000 + n).toString(16).padStart(40, '0')}`
const poolAddress = (n: number): Hex => `0x${(0xc3000 + n).toString(16).padStart(40, '0')}`
const tokenAddress = (n: number): Hex => `0x${(0xd4000 + n).toString(16).padStart(40, '0')}`
const signed = (value: bigint) => word(BigInt.asUintN(256, value).toString(16))

/** Block 0's second transaction: the pairs and pools the exchange index follows, created by the configured factories, each pool initialized. */
function created(): SyntheticTx {
  const pairs = Array.from({ length: PAIRS }, (_, n) => ({
    address: exchange.v2Factory as Hex,
    topics: [v2Events.PairCreated.selector, word(tokenAddress(2 * n).slice(2)), word(tokenAddress(2 * n + 1).slice(2))],
    data: `0x${word(pairAddress(n).slice(2)).slice(2)}${word((n + 1).toString(16)).slice(2)}` as Hex,
  }))
  const pools = Array.from({ length: POOLS }, (_, n) => [
    {
      address: exchange.v3Factory as Hex,
      topics: [clEvents.PoolCreated.selector, word(tokenAddress(2 * n).slice(2)), word(tokenAddress(2 * n + 1).slice(2)), word((3000).toString(16))],
      data: `0x${word((60).toString(16)).slice(2)}${word(poolAddress(n).slice(2)).slice(2)}` as Hex,
    },
    { address: poolAddress(n), topics: [clEvents.Initialize.selector], data: `0x${word((2n ** 96n).toString(16)).slice(2)}${signed(0n).slice(2)}` as Hex },
  ]).flat()
  return { from: other(0), to: exchange.v2Factory as Hex, logs: [...pairs, ...pools] }
}

/** A swap on pair `n % PAIRS` (its Sync and Swap), or on pool `n % POOLS`. */
function swap(n: number, on: 'pair' | 'pool'): SyntheticTx {
  const [from, amount] = [other(n), BigInt(1000 + (n % 5000))]
  if (on === 'pair') {
    const pair = pairAddress(n % PAIRS)
    const reserves = `0x${word((10n ** 21n + BigInt(n)).toString(16)).slice(2)}${word((10n ** 21n - BigInt(n)).toString(16)).slice(2)}` as Hex
    const amounts = `0x${[amount, 0n, 0n, amount - 3n].map((value) => word(value.toString(16)).slice(2)).join('')}` as Hex
    return { from, to: pair, logs: [{ address: pair, topics: [v2Events.Sync.selector], data: reserves }, { address: pair, topics: [v2Events.Swap.selector, word(from.slice(2)), word(from.slice(2))], data: amounts }] }
  }
  const pool = poolAddress(n % POOLS)
  const data = [signed(amount), signed(-(amount - 3n)), word((2n ** 96n + BigInt(n)).toString(16)), word((10n ** 18n).toString(16)), signed(BigInt(n % 7) - 3n)].map((value) => value.slice(2)).join('')
  return { from, to: pool, logs: [{ address: pool, topics: [clEvents.Swap.selector, word(from.slice(2)), word(from.slice(2))], data: `0x${data}` }] }
}

/**
 * Block `number`: every other transaction a transfer of the token to or from the address, with
 * its log; of the rest, one in two a swap on one of the pairs, one in two on one of the pools.
 */
function block(number: number) {
  const txs = Array.from({ length: PER_BLOCK }, (_, index): SyntheticTx => {
    const n = number * PER_BLOCK + index
    if (number === 0 && index === 1) return created()
    if (index % 2 === 1) return swap(n, index % 4 === 1 ? 'pair' : 'pool')
    const [from, to] = n % 4 === 0 ? [ADDRESS, other(n)] : [other(n), ADDRESS]
    return {
      from,
      to: TOKEN,
      input: `0xa9059cbb${word(to.slice(2)).slice(2)}${word(n.toString(16)).slice(2)}`,
      logs: [{ address: TOKEN, topics: [TRANSFER, word(from.slice(2)), word(to.slice(2))], data: word(n.toString(16)) }],
    }
  })
  return syntheticBundle(number, txs)
}

/**
 * One route on a server of each engine (SQLite's first): their answers checked equal, byte for
 * byte, and holding `wanted`; then loaded side by side. A table row an engine, with its rate
 * over SQLite's.
 */
async function engineRows(name: string, urls: Record<string, string>, path: string, wanted = ''): Promise<string[][]> {
  const answers = await Promise.all(Object.values(urls).map((url) => fetch(`${url}${path}`).then((response) => response.text())))
  if (answers.some((answer) => answer !== answers[0]) || !answers[0]!.includes(wanted)) throw new Error(`${name}: the engines answer differently, or nothing`)
  const measured = await sideBySide(Object.values(urls), [path], { connections, seconds, trials: TRIALS })
  return Object.keys(urls).map((engine, index) => [`${name}, ${engine}`, ...httpCells(measured[index]!), (measured[index]!.route.perSecond / measured[0]!.route.perSecond).toFixed(2)])
}

const dir = scratchDir('postgres')
const spoolPath = join(dir, 'spool.db')
const writer = openSpool(spoolPath)
const spoolWriter = sqliteWriter(writer)
for (let first = 0; first < blockCount; first += BLOCKS_PER_WRITE) {
  await writeBatch(spoolWriter, Array.from({ length: Math.min(BLOCKS_PER_WRITE, blockCount - first) }, (_, offset) => block(first + offset)))
}
closeSpool(writer)
const file = openReader(spoolPath)

// 1. The copy, into PostgreSQL and, the same way, into a fresh SQLite file.
const server = await startPostgresServer()
atExit(() => server.stop())
const url = await server.database('bench')
const admin = new SQL(url, { max: 2 })
let started = performance.now()
const copied = await copySpoolToPostgres(file, admin, 'stack')
const postgresCopySeconds = (performance.now() - started) / 1000
await admin.close()
const rows = Object.values(copied).reduce((sum, count) => sum + count, 0)

const embeddedCopy = openSpool(join(dir, 'copy.db'))
started = performance.now()
embeddedCopy.transaction(() => {
  for (const table of COPIED_TABLES) {
    const columns = file.query<{ name: string }, []>(`PRAGMA table_info(${table})`).all().map((column) => column.name)
    const insert = embeddedCopy.prepare(`INSERT OR REPLACE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
    for (const row of file.query<Record<string, unknown>, []>(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${primaryKeyOf(file, table).join(', ')}`).iterate()) {
      insert.run(...(columns.map((column) => row[column]) as []))
    }
  }
})()
const sqliteCopySeconds = (performance.now() - started) / 1000
embeddedCopy.close()

printTable(
  `The copy of a spool of ${fmt.count(blockCount)} blocks and ${fmt.count(copied.txs)} transactions (${fmt.count(rows)} rows), in one transaction`,
  ['into', 'seconds', 'rows/s', 'of SQLite'],
  [
    ['PostgreSQL (stack db import)', postgresCopySeconds.toFixed(2), fmt.count(rows / postgresCopySeconds), (sqliteCopySeconds / postgresCopySeconds).toFixed(2)],
    ['SQLite, the same rows and batches', sqliteCopySeconds.toFixed(2), fmt.count(rows / sqliteCopySeconds), '1.00'],
  ],
  ["PostgreSQL: COPY FROM STDIN in its text format, 5,000 rows a chunk, through Bun.sql; SQLite: one prepared INSERT a row, the tables' indexes in place on both"],
)

// 2. The listener's reads over each engine.
const config = parseConfig(`[data]\ndir = "${dir}"\n[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[etherscan]\nport = 0\nrateLimitPerMinute = 1000000000\n`, null)
const logs = fileLogger(dir)
const context = { config, log: logs.log, chain: createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId }) }
// The pool the derivation writes through, and that reads as `database.prepare = false` does;
// and the pool that reads as an instance reads by default, its statements prepared.
const pool = connectPostgres(url, { schema: 'stack', max: 10 })
const preparedPool = connectPostgres(url, { schema: 'stack', max: 10, prepare: true })
const onFile = listen(createEtherscanApp(context, { reader: sqliteDb(file) } as Spool), 'etherscan', '127.0.0.1', 0, logs.log)
const onPostgres = listen(createEtherscanApp(context, { reader: postgresDb(preparedPool) } as Spool), 'etherscan', '127.0.0.1', 0, logs.log)
const onUnprepared = listen(createEtherscanApp(context, { reader: postgresDb(pool) } as Spool), 'etherscan', '127.0.0.1', 0, logs.log)

const head = blockCount - 1
const routes: Array<[string, string]> = [
  ['txlist, page 1 (100, newest first)', `/api?module=account&action=txlist&address=${ADDRESS}&page=1&offset=100&sort=desc`],
  ['txlist, page 20', `/api?module=account&action=txlist&address=${ADDRESS}&page=20&offset=100&sort=desc`],
  ['tokentx, 100 newest', `/api?module=account&action=tokentx&address=${ADDRESS}&page=1&offset=100&sort=desc`],
  ['getLogs by address, 100', `/api?module=logs&action=getLogs&address=${TOKEN}&fromBlock=${head - 50}&toBlock=${head}&page=1&offset=100`],
  ['getblockreward', `/api?module=block&action=getblockreward&blockno=${head}`],
]
const table: string[][] = []
for (const [name, path] of routes) {
  table.push(...(await engineRows(name, { SQLite: onFile.url, PostgreSQL: onPostgres.url, 'PostgreSQL, not prepared': onUnprepared.url }, path, '"status":"1"')))
}
printTable(
  `The Etherscan-compatible listener over each engine, the same spool, wrk from a second process, ${connections} connections, ${seconds} s per route`,
  ['route', ...HTTP_COLUMNS, 'of SQLite'],
  table,
  [
    'ceiling: a bare Bun.serve in its own process returning the same bytes for the same path, loaded the same way in the same run',
    'each answer checked equal, byte for byte, between the engines before it is loaded',
    "PostgreSQL on 127.0.0.1, a pool of 10 connections of the engine's Bun.sql, its statements prepared (the default) or not (database.prepare = false); SQLite: the listener's read-only connection",
  ],
)
await onFile.stop()
await onPostgres.stop()
await onUnprepared.stop()

// 3. Derivation: every stream derived from the spool to its head, on each engine.
const streams = createStreams(parseConfig('', null))
copyFileSync(spoolPath, join(dir, 'derive.db'))
const deriving = openSpool(join(dir, 'derive.db'), streams.flatMap((stream) => stream.migrations))
await migratePostgres(pool, 'stack', [...postgresSpoolMigrations, ...postgresStreamMigrations(streams)])
const derivers = { SQLite: sqliteWriter(deriving), PostgreSQL: postgresWriter(pool, { schema: 'stack' }) }
const derivation: string[][] = []
for (const stream of streams) {
  const measured: Record<string, { items: number; seconds: number }> = {}
  for (const [engine, writer] of Object.entries(derivers)) {
    let items = 0
    const begun = performance.now()
    for (;;) {
      const pass = await runPass(writer, stream, head, { historyFrom: head - 64 })
      items += stream.kind === 'blocks' ? (pass.txs ?? 0) : pass.logs
      if (pass.caughtUp) break
    }
    measured[engine] = { items, seconds: (performance.now() - begun) / 1000 }
  }
  if (measured.SQLite!.items !== measured.PostgreSQL!.items) throw new Error(`${stream.name}: the engines derived different amounts`)
  if (measured.SQLite!.items === 0) continue
  const rate = (engine: string) => measured[engine]!.items / measured[engine]!.seconds
  for (const engine of Object.keys(derivers)) {
    const unit = stream.kind === 'blocks' ? 'transactions' : 'logs'
    derivation.push([`${stream.name}, ${engine}`, `${fmt.count(measured[engine]!.items)} ${unit}`, measured[engine]!.seconds.toFixed(2), fmt.count(rate(engine)), (rate(engine) / rate('SQLite')).toFixed(2)])
  }
}
printTable(
  `Derivation from the same spool on each engine: each stream from its first log to the head, the passes the follower runs`,
  ['stream, engine', 'derived', 'seconds', 'per second', 'of SQLite'],
  derivation,
  ["streams with nothing to derive on this chain (no fee router) are left out; the tally counts the transactions of the blocks it reads, the others the logs of their events", 'PostgreSQL: the rows a pass changes read in queries of up to 500 keys, what it writes sent as multi-row inserts queued behind each other; the rest of its gap is a round trip for each state row a pass reads alone'],
)

// 4. The explorer's and the exchange index's routes over the derived tables, each answer made
// anew on each request (no answer kept), so that each engine's reads are what is measured.
const routesConfig = parseConfig(
  `[data]\ndir = "${dir}"\n[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[registry]\nsource = "${join(ROOT, 'registry')}"\n[explorer]\nport = 0\nrateLimitPerMinute = 1000000000\n[exchange]\nport = 0\n`,
  null,
)
const routesContext = { ...context, config: routesConfig }
// The derivation's log folded into the file first, as the writer does every 64 MiB and when it
// stops: the embedded engine's reads are measured without a long log to look through.
deriving.run('PRAGMA wal_checkpoint(TRUNCATE)')
const derivedFile = openReader(join(dir, 'derive.db'))
const movingSpool = (reader: SpoolDb) => {
  let version = 0
  return { ...fixedSpool(dir, reader), version: () => ++version }
}
const appsOn = (reader: SpoolDb) => ({
  explorer: listen(createExplorerApp(routesContext, movingSpool(reader), { answerCacheMs: 0, collectionCacheMs: 0 }), 'explorer', '127.0.0.1', 0, logs.log),
  exchange: listen(createExchangeApp(routesContext, movingSpool(reader)), 'exchange', '127.0.0.1', 0, logs.log),
})
const served = { SQLite: appsOn(sqliteDb(derivedFile)), PostgreSQL: appsOn(postgresDb(preparedPool)), 'PostgreSQL, not prepared': appsOn(postgresDb(pool)) }
const pages: Array<[string, 'explorer' | 'exchange', string]> = [
  ['/api/blocks', 'explorer', '/api/blocks'],
  ['/api/txs', 'explorer', '/api/txs'],
  ['/pools', 'exchange', '/pools'],
]
const routeRows: string[][] = []
for (const [name, service, path] of pages) {
  routeRows.push(...(await engineRows(name, Object.fromEntries(Object.entries(served).map(([engine, apps]) => [engine, apps[service].url])), path)))
}
printTable(
  `The explorer's and the exchange index's routes over each engine, every answer made anew, wrk from a second process, ${connections} connections, ${seconds} s per route`,
  ['route', ...HTTP_COLUMNS, 'of SQLite'],
  routeRows,
  ['each answer checked equal, byte for byte, between the engines before it is loaded', '/pools: the 20 pairs and 20 pools with their state and volumes; no token is known to the node, so none is priced'],
)
for (const apps of Object.values(served)) for (const app of Object.values(apps)) await app.stop()
derivedFile.close()
deriving.close()
await Promise.all([pool.close(), preparedPool.close()])
file.close()
