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
//    of the same bytes in the same run.
//
// The chain: blocks of 100 transactions, every other one a token transfer with its Transfer log
// to or from the address the reads ask for, the rest between other accounts. The server is
// Debian's PostgreSQL, started for the bench in a temporary folder (as the tests start theirs),
// with fsync off like the embedded engine's synchronous = NORMAL: neither waits for the disk.

import { SQL } from 'bun'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { createEtherscanApp } from '../src/etherscan/app.ts'
import { listen } from '../src/http/serve.ts'
import { closeSpool, openReader, openSpool } from '../src/spool/db.ts'
import { sqliteDb } from '../src/spool/engine.ts'
import { connectPostgres } from '../src/spool/postgres/connect.ts'
import { COPIED_TABLES, copySpoolToPostgres, primaryKeyOf } from '../src/spool/postgres/importSqlite.ts'
import { postgresDb } from '../src/spool/postgres/reader.ts'
import type { Spool } from '../src/spool/spool.ts'
import { prepare, writeBatch } from '../src/spool/store.ts'
import { startPostgresServer } from '../tests/helpers/postgresServer.ts'
import { syntheticBundle, type SyntheticTx } from '../tests/helpers/spoolBlocks.ts'
import { againstCeiling, atExit, fileLogger, findWrk, fmt, HTTP_COLUMNS, httpCells, printTable, scratchDir } from './harness.ts'

const [blockCount = 1000, seconds = 3, connections = 4] = process.argv.slice(2).map(Number)
findWrk()

const PER_BLOCK = 100
const BLOCKS_PER_WRITE = 50
const ADDRESS: Hex = `0x${'a1'.repeat(20)}`
const TOKEN: Hex = `0x${'70'.repeat(20)}`
const TRANSFER: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const word = (value: string): Hex => `0x${value.padStart(64, '0')}`
const other = (n: number): Hex => `0x${(1 + (n % 997)).toString(16).padStart(40, '0')}`

/** Block `number`: every other transaction a transfer of the token to or from the address, with its log. */
function block(number: number) {
  const txs = Array.from({ length: PER_BLOCK }, (_, index): SyntheticTx => {
    const n = number * PER_BLOCK + index
    if (index % 2 === 1) return { from: other(n), to: other(n + 1) }
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

const dir = scratchDir('postgres')
const spoolPath = join(dir, 'spool.db')
const writer = openSpool(spoolPath)
const statements = prepare(writer)
for (let first = 0; first < blockCount; first += BLOCKS_PER_WRITE) {
  writeBatch(writer, statements, Array.from({ length: Math.min(BLOCKS_PER_WRITE, blockCount - first) }, (_, offset) => block(first + offset)))
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
  ["PostgreSQL: multi-row INSERTs of up to 60,000 parameters through Bun.sql; SQLite: one prepared INSERT a row, the tables' indexes in place on both"],
)

// 2. The listener's reads over each engine.
const config = parseConfig(`[data]\ndir = "${dir}"\n[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[etherscan]\nport = 0\nrateLimitPerMinute = 1000000000\n`, null)
const logs = fileLogger(dir)
const context = { config, log: logs.log, chain: createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId }) }
const pool = connectPostgres(url, { schema: 'stack', max: 10 })
const onFile = listen(createEtherscanApp(context, { reader: sqliteDb(file) } as Spool), 'etherscan', '127.0.0.1', 0, logs.log)
const onPostgres = listen(createEtherscanApp(context, { reader: postgresDb(pool) } as Spool), 'etherscan', '127.0.0.1', 0, logs.log)

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
  const [fromFile, fromPostgres] = await Promise.all([fetch(`${onFile.url}${path}`).then((r) => r.text()), fetch(`${onPostgres.url}${path}`).then((r) => r.text())])
  if (fromFile !== fromPostgres || !fromFile.includes('"status":"1"')) throw new Error(`${name}: the engines answer differently, or nothing`)
  const embedded = await againstCeiling(onFile.url, [path], { connections, seconds })
  const postgres = await againstCeiling(onPostgres.url, [path], { connections, seconds })
  table.push([`${name}, SQLite`, ...httpCells(embedded), '1.00'])
  table.push([`${name}, PostgreSQL`, ...httpCells(postgres), (postgres.route.perSecond / embedded.route.perSecond).toFixed(2)])
}
printTable(
  `The Etherscan-compatible listener over each engine, the same spool, wrk from a second process, ${connections} connections, ${seconds} s per route`,
  ['route', ...HTTP_COLUMNS, 'of SQLite'],
  table,
  [
    'ceiling: a bare Bun.serve in its own process returning the same bytes for the same path, loaded the same way in the same run',
    'each answer checked equal, byte for byte, between the engines before it is loaded',
    "PostgreSQL on 127.0.0.1, a pool of 10 connections; SQLite: the listener's read-only connection",
  ],
)
await onFile.stop()
await onPostgres.stop()
await pool.close()
file.close()
