// bun run bench:index [blocks]
//
// The exchange index under load. 1. Derivation: a spool of synthetic blocks (real event
// encodings from the dev chain's factories and tokens, plus unrelated Transfer logs) is derived
// by each stream on its own, in passes of 5000 logs, and timed (logs/s). 2. Serving: the
// exchange app over that spool, with token metadata read from a real anvil, is loaded by wrk from
// a second process on /pools, /cl/pool/{address} and /swaps?limit=500, next to a bare Bun.serve
// in a process of its own returning the same bytes and headers (the ceiling of this machine for
// that answer), measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Database } from 'bun:sqlite'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { createExchangeApp } from '../src/exchange/app.ts'
import { clEvents, v2Events } from '../src/exchange/events.ts'
import { listen } from '../src/http/serve.ts'
import { txId } from '../src/spool/codec.ts'
import { openReader, openSpool, setMeta } from '../src/spool/db.ts'
import { emptyHealth } from '../src/spool/health.ts'
import type { Spool } from '../src/spool/spool.ts'
import { runPass, type StreamDefinition } from '../src/spool/streams.ts'
import { createStreams } from '../src/streams.ts'
import { startDevChain } from '../tests/helpers/devChain.ts'
import { againstCeiling, fileLogger, findWrk, fmt, HTTP_COLUMNS, httpCells, printTable } from './harness.ts'

const BLOCKS = Number(process.argv[2] ?? 4000)
/** The pairs of the main spool, and of the one /pools is measured on at size. */
const PAIRS = 30
const MANY_PAIRS = Number(process.argv[3] ?? 1000)
const CONNECTIONS = 32
const SECONDS = 4
findWrk()

// Event data, word by word, as a contract would have encoded it.
const word = (value: bigint | number) => {
  const big = BigInt(value)
  return Buffer.from((big < 0n ? (1n << 256n) + big : big).toString(16).padStart(64, '0'), 'hex')
}
const addressWord = (hex: string) => Buffer.from(hex.slice(2).toLowerCase().padStart(64, '0'), 'hex')
const topic = (selector: string) => Buffer.from(selector.slice(2), 'hex')
const fakeAddress = (kind: number, index: number) => `0x${kind.toString(16).padStart(2, '0')}${index.toString(16).padStart(38, '0')}`

type FakeLog = { address: string; topics: Buffer[]; data: Buffer }

/** Fills a spool with `blocks` blocks of exchange activity and noise over `pairCount` pairs; returns the log count. */
function fillSpool(db: Database, contracts: { v2Factory: string; v3Factory: string; tokens: string[] }, blocks: number, pairCount: number): number {
  const insertBlock = db.prepare('INSERT INTO blocks (number, hash, parent_hash, timestamp, gas_used, gas_limit, tx_count) VALUES (?, ?, ?, ?, 0, 30000000, ?)')
  const insertTx = db.prepare(
    `INSERT INTO txs (id, hash, block_number, tx_index, from_addr, to_addr, value, nonce, type, gas, input, status, gas_used, log_count)
     VALUES (?, ?, ?, ?, ?, ?, '0', 0, 2, 21000, x'', 1, 21000, ?)`,
  )
  const insertLog = db.prepare('INSERT INTO logs (tx_id, log_index, block_number, address, topic0, topic1, topic2, topic3, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
  const hash = (block: number, index: number) => Buffer.from(`${block.toString(16).padStart(40, '0')}${index.toString(16).padStart(24, '0')}`, 'hex')
  const senders = Array.from({ length: 50 }, (_, index) => fakeAddress(0xee, index))
  const pairs = Array.from({ length: pairCount }, (_, index) => fakeAddress(0xaa, index))
  const pools = Array.from({ length: 10 }, (_, index) => fakeAddress(0xbb, index))
  const transfer = topic('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
  // The dev chain's tokens and some that exist only in logs (their metadata reads answer null):
  // one pair and one pool of wrapped ether and dollars, as on a real exchange, the rest mixed.
  const tokens = [...contracts.tokens, ...Array.from({ length: 8 }, (_, index) => fakeAddress(0xcc, index))]
  const tokensOf = (index: number) => {
    const [a, b] = index === 0 ? [tokens[0]!, tokens[1]!] : [tokens[index % tokens.length]!, tokens[(index * 3 + 1) % tokens.length]!]
    const [first, second] = a === b ? [a, tokens[(index + 5) % tokens.length]!] : [a, b]
    return first.toLowerCase() < second.toLowerCase() ? [first, second] : [second, first]
  }
  let logs = 0
  let seed = 7
  const random = (below: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % below)
  const positions: Array<{ pool: string; lower: number; upper: number; liquidity: bigint }> = []
  const ticks = pools.map(() => 0)

  db.transaction(() => {
    for (let block = 0; block < blocks; block++) {
      const txs: FakeLog[][] = []
      if (block === 0) {
        txs.push([10, 60, 200].map((spacing, index) => ({ address: contracts.v3Factory, topics: [topic(clEvents.FeeAmountEnabled.selector), word([500, 3000, 10000][index]!), word(spacing)], data: Buffer.alloc(0) })))
        txs.push(pairs.map((pair, index) => {
          const [token0, token1] = tokensOf(index)
          return { address: contracts.v2Factory, topics: [topic(v2Events.PairCreated.selector), addressWord(token0!), addressWord(token1!)], data: Buffer.concat([addressWord(pair), word(index + 1)]) }
        }))
        txs.push(pools.flatMap((pool, index) => [
          { address: contracts.v3Factory, topics: [topic(clEvents.PoolCreated.selector), ...tokensOf(index).map((token) => addressWord(token!)), word(3000)], data: Buffer.concat([word(60), addressWord(pool)]) },
          { address: pool, topics: [topic(clEvents.Initialize.selector)], data: Buffer.concat([word(1n << 96n), word(0)]) },
        ]))
      }
      for (let index = 0; index < 20; index++) {
        const sender = senders[random(senders.length)]!
        const noise = { address: tokens[0]!, topics: [transfer, addressWord(sender), addressWord(senders[0]!)], data: word(1000) }
        const slot = index % 10
        if (slot < 4) {
          // A constant-product swap: the token transfer in, the pair's Sync, its Swap.
          const pair = pairs[random(pairs.length)]!
          const amount = BigInt(1 + random(1_000_000)) * 10n ** 12n
          txs.push([
            noise,
            { address: pair, topics: [topic(v2Events.Sync.selector)], data: Buffer.concat([word(10n ** 24n + amount), word(10n ** 21n - amount / 1000n)]) },
            { address: pair, topics: [topic(v2Events.Swap.selector), addressWord(sender), addressWord(sender)], data: Buffer.concat([word(amount), word(0), word(0), word(amount / 1000n)]) },
          ])
        } else if (slot < 8) {
          // A concentrated swap with the pool's state after it; two transfers beside it.
          const pool = random(pools.length)
          ticks[pool] = ticks[pool]! + random(121) - 60
          const amount = BigInt(1 + random(1_000_000)) * 10n ** 12n
          txs.push([
            noise,
            noise,
            { address: pools[pool]!, topics: [topic(clEvents.Swap.selector), addressWord(sender), addressWord(sender)], data: Buffer.concat([word(amount), word(-amount / 1000n), word((1n << 96n) + BigInt(ticks[pool]!) * 10n ** 20n), word(10n ** 22n), word(ticks[pool]!)]) },
          ])
        } else if (slot === 8 || positions.length === 0) {
          const pool = random(pools.length)
          const lower = (Math.floor(ticks[pool]! / 60) - 1 - random(20)) * 60
          const position = { pool: pools[pool]!, lower, upper: lower + 60 * (2 + random(40)), liquidity: BigInt(1 + random(1_000_000)) * 10n ** 15n }
          positions.push(position)
          txs.push([{ address: position.pool, topics: [topic(clEvents.Mint.selector), addressWord(sender), word(position.lower), word(position.upper)], data: Buffer.concat([addressWord(sender), word(position.liquidity), word(position.liquidity / 3n), word(position.liquidity / 5n)]) }])
        } else {
          // Half of an open position out, and collected in the same transaction.
          const position = positions[random(positions.length)]!
          const amount = position.liquidity / 2n
          position.liquidity -= amount
          const owner = addressWord(senders[1]!)
          txs.push([
            { address: position.pool, topics: [topic(clEvents.Burn.selector), owner, word(position.lower), word(position.upper)], data: Buffer.concat([word(amount), word(amount / 3n), word(amount / 5n)]) },
            { address: position.pool, topics: [topic(clEvents.Collect.selector), owner, word(position.lower), word(position.upper)], data: Buffer.concat([owner, word(amount / 3n), word(amount / 5n)]) },
          ])
        }
      }
      insertBlock.run(block, hash(block, 0xffffff), hash(block - 1, 0xffffff), 1_700_000_000 + block, txs.length)
      txs.forEach((txLogs, index) => {
        const id = txId(block, index)
        insertTx.run(id, hash(block, index), block, index, addressWord(senders[0]!).subarray(12), null, txLogs.length)
        txLogs.forEach((log, logIndex) => {
          const [topic0, topic1, topic2, topic3] = log.topics
          insertLog.run(id, logIndex, block, Buffer.from(log.address.slice(2), 'hex'), topic0 ?? null, topic1 ?? null, topic2 ?? null, topic3 ?? null, log.data)
          logs++
        })
      })
    }
    setMeta(db, 'cursor', String(blocks - 1))
  })()
  return logs
}

// The dev chain's contracts: real tokens for the metadata reads.
const dev = await startDevChain()
const dir = mkdtempSync(join(tmpdir(), 'stack-bench-index-'))
try {
  const { manifest } = dev
  const config = parseConfig(`[chain]\nrpc = "${dev.rpcUrl}"\nws = "${dev.wsUrl}"\n[data]\ndir = "${dir}"\n`, null)
  // Every stream, the explorer's too: they all derive the same spool.
  const streams = createStreams(config)
  const path = join(dir, 'spool.db')
  const db = openSpool(path, streams.flatMap((stream) => stream.migrations))
  process.stderr.write(`filling a spool with ${BLOCKS} blocks...\n`)
  const contracts = { v2Factory: config.exchange.v2Factory, v3Factory: config.exchange.v3Factory, tokens: [manifest.contracts.DUSD, manifest.contracts.WETH9] }
  const totalLogs = fillSpool(db, contracts, BLOCKS, PAIRS)

  const derivation: string[][] = []
  /** Every pass of a stream until it has caught up with the spool: logs and seconds. */
  const derive = (stream: StreamDefinition) => {
    let logs = 0
    let passes = 0
    const started = performance.now()
    for (;;) {
      const pass = runPass(db, stream, BLOCKS - 1)
      logs += pass.logs
      passes++
      if (pass.caughtUp) break
    }
    return { logs, passes, seconds: (performance.now() - started) / 1000 }
  }
  for (const stream of streams) {
    // The same passes with nothing applied: the framework's share (selecting the logs, the cursor).
    const reading = derive({ ...stream, name: `${stream.name}-read-only`, apply: () => {} })
    const { logs, passes, seconds } = derive(stream)
    derivation.push([stream.name, String(logs), String(passes), seconds.toFixed(2), reading.seconds.toFixed(2), fmt.count(logs / seconds)])
  }

  // The app over the derived spool, the node giving token metadata, logging at info.
  const chain = createChain({ rpcUrl: dev.rpcUrl, wsUrl: dev.wsUrl, chainId: 78270 })
  const logs = fileLogger(dir)
  /** Each route of `routes` on the exchange app over the spool at `spoolPath`, under wrk next to its ceiling. */
  const serve = async (spoolPath: string, routes: (reader: Database) => string[], label = '') => {
    const reader = openReader(spoolPath)
    const spool: Spool = { path: spoolPath, reader, health: () => emptyHealth(78270), version: () => 0, onHealth: () => () => true, fatal: new Promise(() => {}), stop: async () => reader.close() }
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
  const many = openSpool(manyPath, streams.flatMap((stream) => stream.migrations))
  fillSpool(many, contracts, 100, MANY_PAIRS)
  for (const stream of streams) while (!runPass(many, stream, 99).caughtUp);
  many.close()
  serving.push(...(await serve(manyPath, () => ['/pools'], ` (${fmt.count(MANY_PAIRS)} pairs)`)))
  db.close()

  printTable(
    `derivation: ${BLOCKS} blocks, ${fmt.count(totalLogs)} logs (exchange events and unrelated transfers); passes of 5000 logs`,
    ['stream', 'logs derived', 'passes', 'seconds', 'reading alone, s', 'logs/s'],
    derivation,
  )
  printTable(
    `serving: wrk from a second process, ${CONNECTIONS} connections for ${SECONDS} s`,
    ['route', 'bytes', 'handler µs', ...HTTP_COLUMNS],
    serving,
    [
      'ceiling: a bare Bun.serve in its own process returning the same bytes and headers, loaded the same way in the same run',
      `the app logs at info, a line per request through a buffer into a file: ${fmt.count(logs.lines())} lines`,
      'each route and its ceiling loaded three times in turn, the best run of each counted',
    ],
  )
} finally {
  await dev.stop()
  rmSync(dir, { recursive: true, force: true })
}
