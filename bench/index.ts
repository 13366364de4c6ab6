// bun run bench:index [blocks]
//
// The exchange index under load. 1. Derivation: a spool of synthetic blocks (real event
// encodings from the dev chain's factories and tokens, plus unrelated Transfer logs) is derived
// by each stream on its own, in passes of 5000 logs, and timed (logs/s). 2. Serving: the
// exchange app over that spool, with token metadata read from a real anvil, is loaded by wrk from
// a second process on /pools, /cl/pool/{address} and /swaps?limit=500, next to a bare Bun.serve
// in a process of its own returning the same bytes and headers (the ceiling of this machine for
// that answer), measured in the same run.
import { sqliteDb, sqliteWriter } from '../src/spool/sqlite/engine.ts'
import { join } from 'node:path'
import type { Database } from 'bun:sqlite'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { createExchangeApp } from '../src/exchange/app.ts'
import { listen } from '../src/http/serve.ts'
import { closeSpool, openReader, openSpool } from '../src/spool/sqlite/db.ts'
import { runPass } from '../src/spool/streams.ts'
import { createStreams } from '../src/streams.ts'
import { startDevChain } from '../tests/helpers/devChain.ts'
import { fixedSpool } from '../tests/helpers/fixedSpool.ts'
import { DERIVATION_COLUMNS, measureDerivation } from './derivation.ts'
import { fillSpool } from './exchangeSpool.ts'
import { againstCeiling, fileLogger, findWrk, fmt, HTTP_COLUMNS, httpCells, printTable, scratchDir } from './harness.ts'

const BLOCKS = Number(process.argv[2] ?? 4000)
/** The pairs of the main spool, and of the one /pools is measured on at size. */
const PAIRS = 30
const MANY_PAIRS = Number(process.argv[3] ?? 1000)
const CONNECTIONS = 32
const SECONDS = 4
findWrk()

// The dev chain's contracts: real tokens for the metadata reads.
const dev = await startDevChain()
const dir = scratchDir('index')
try {
  const { manifest } = dev
  const config = parseConfig(`[chain]\nrpc = "${dev.rpcUrl}"\nws = "${dev.wsUrl}"\n[data]\ndir = "${dir}"\n`, null)
  // Every stream, the explorer's too: they all derive the same spool.
  const streams = createStreams(config)
  const path = join(dir, 'spool.db')
  const db = openSpool(
    path,
    streams.flatMap((stream) => stream.migrations),
  )
  process.stderr.write(`filling a spool with ${BLOCKS} blocks...\n`)
  const contracts = { v2Factory: config.exchange.v2Factory, v3Factory: config.exchange.v3Factory, tokens: [manifest.contracts.DUSD, manifest.contracts.WETH9] }
  const totalLogs = fillSpool(db, contracts, BLOCKS, PAIRS)

  // The log folded into the file: the derivation copies the file alone.
  closeSpool(db)
  // As the spool's follower runs a pass: the history of versioned rows kept as deep as a
  // reorganisation can reach (spool.maxReorgDepth at its default), none below.
  const historyFrom = BLOCKS - 1 - config.spool.maxReorgDepth
  const migrations = streams.flatMap((stream) => stream.migrations)
  const derivation = await measureDerivation(streams, { filled: path, scratch: join(dir, 'derived.db'), migrations, head: BLOCKS - 1, historyFrom })
  // Every stream derived once more, on the spool the app serves.
  const derived = openSpool(path, migrations)
  const derivedWriter = sqliteWriter(derived)
  for (const stream of streams) while (!(await runPass(derivedWriter, stream, BLOCKS - 1, { historyFrom })).caughtUp);
  derived.close()

  // The app over the derived spool, the node giving token metadata, logging at info.
  const chain = createChain({ rpcUrl: dev.rpcUrl, wsUrl: dev.wsUrl, chainId: 78270 })
  const logs = fileLogger(dir)
  /** Each route of `routes` on the exchange app over the spool at `spoolPath`, under wrk next to its ceiling. */
  const serve = async (spoolPath: string, routes: (reader: Database) => string[], label = '') => {
    const reader = openReader(spoolPath)
    const spool = fixedSpool(spoolPath, sqliteDb(reader), { close: () => reader.close() })
    const exchange = createExchangeApp({ config, log: logs.log, chain }, spool)
    const app = listen(exchange, 'exchange', '127.0.0.1', 0, logs.log)
    const rows: string[][] = []
    for (const route of routes(reader)) {
      const body = await (await fetch(`${app.url}${route}`)).arrayBuffer()
      // The handler alone, in this process: what the route costs before any socket is involved.
      const inProcess = async (count: number) => {
        for (let done = 0; done < count; done++) await (await exchange.handle(new Request(`http://localhost${route}`))).arrayBuffer()
      }
      await inProcess(200)
      const handlerStarted = performance.now()
      await inProcess(2000)
      const handlerMicros = ((performance.now() - handlerStarted) / 2000) * 1000
      const measured = await againstCeiling(app.url, [route], { connections: CONNECTIONS, seconds: SECONDS })
      rows.push([`${route.replace(/0x[0-9a-f]{40}/, '{address}')}${label}`, String(body.byteLength), handlerMicros.toFixed(0), ...httpCells(measured)])
    }
    await app.stop()
    await spool.stop()
    return rows
  }
  const serving = await serve(path, (reader) => {
    const pool = reader.query<{ pool: Uint8Array }, []>('SELECT pool FROM cl_pools LIMIT 1').get()!.pool
    return ['/pools', `/cl/pool/0x${Buffer.from(pool).toString('hex')}`, '/swaps?limit=500']
  })

  // /pools at size: a spool of MANY_PAIRS pairs, derived by the same streams.
  process.stderr.write(`filling a spool with ${MANY_PAIRS} pairs...\n`)
  const manyPath = join(dir, 'pairs.db')
  const many = openSpool(
    manyPath,
    streams.flatMap((stream) => stream.migrations),
  )
  fillSpool(many, contracts, 100, MANY_PAIRS)
  const manyWriter = sqliteWriter(many)
  for (const stream of streams) while (!(await runPass(manyWriter, stream, 99)).caughtUp);
  many.close()
  serving.push(...(await serve(manyPath, () => ['/pools'], ` (${fmt.count(MANY_PAIRS)} pairs)`)))

  printTable(`derivation: ${BLOCKS} blocks, ${fmt.count(totalLogs)} logs (exchange events and unrelated transfers); passes of 5000 logs`, DERIVATION_COLUMNS, derivation, [
    `history of versioned rows kept from block ${historyFrom} on, as the follower keeps it (spool.maxReorgDepth ${config.spool.maxReorgDepth})`,
    "ceiling: reading the stream's logs (its passes with nothing applied) plus writing the rows it wrote by a plain loop of prepared inserts into its emptied tables",
    'each stream derived on a fresh copy of the spool three times, the best run counted',
  ])
  printTable(`serving: wrk from a second process, ${CONNECTIONS} connections for ${SECONDS} s`, ['route', 'bytes', 'handler µs', ...HTTP_COLUMNS], serving, [
    'ceiling: a bare Bun.serve in its own process returning the same bytes and headers, loaded the same way in the same run',
    `the app logs at info, a line per request through a buffer into a file: ${fmt.count(logs.lines())} lines`,
    'each route and its ceiling loaded three times in turn, the best run of each counted',
  ])
} finally {
  await dev.stop()
}
