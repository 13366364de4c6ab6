import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { SQL } from 'bun'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { parseConfig } from '../../src/config/load.ts'
import { createEtherscanApp } from '../../src/etherscan/app.ts'
import { createExchangeApp } from '../../src/exchange/app.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import { closeSpool, openReader, openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import type { SpoolDb, SpoolWriter } from '../../src/spool/engine.ts'
import { emptyHealth } from '../../src/spool/health.ts'
import { connectPostgres } from '../../src/spool/postgres/connect.ts'
import { migratePostgres } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { postgresDb } from '../../src/spool/postgres/reader.ts'
import { postgresStreamMigrations } from '../../src/spool/postgres/streamTables.ts'
import { postgresWriter } from '../../src/spool/postgres/writer.ts'
import { writeBatch } from '../../src/spool/store.ts'
import { runPass, type StreamDefinition } from '../../src/spool/streams.ts'
import { createStreams } from '../../src/streams.ts'
import { fixedSpool } from '../helpers/fixedSpool.ts'
import { testPostgres } from '../helpers/postgres.ts'
import { answerOf } from '../helpers/routes.ts'
import { callFrame, syntheticBundle, type SyntheticTx } from '../helpers/spoolBlocks.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { configDir, fromSource, ROOT, runOnce } from '../helpers/stack.ts'

// `stack db import` of a spool of 150,000 transactions, as an operator runs it, then the
// streams derived on PostgreSQL as the indexer derives them after the switch: every route of
// the explorer, the exchange index and the Etherscan-compatible listener asked of an app over
// the database answers, byte for byte, what the same app answers over the embedded file it was
// copied from.

const SCHEMA = 'switched'
const BLOCKS = 1000
const PER_BLOCK = 150
const HEAD = BLOCKS - 1
const TOKEN: Hex = `0x${'7e'.repeat(20)}`
const TRANSFER: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const word = (digits: string): Hex => `0x${digits.padStart(64, '0')}`
/** One of 300 accounts. */
const account = (n: number): Hex => `0x${(0xa000 + (n % 300)).toString(16).padStart(40, '0')}`
const ALICE = account(120)

/**
 * Block `number`: every third transaction a transfer of the token with its Transfer log, every
 * 40th one paid back value in an inner call, every 97th reverted, the rest plain transfers.
 */
function block(number: number) {
  const txs = Array.from({ length: PER_BLOCK }, (_, index): SyntheticTx => {
    const n = number * PER_BLOCK + index
    const from = account(n)
    const to = account(n * 7 + 3)
    if (n % 97 === 0) return { from, to: TOKEN, input: '0xa9059cbb', reverted: true }
    if (n % 40 === 0) return { from, to: TOKEN, trace: { calls: [callFrame(TOKEN, from, { value: `0x${(n + 1).toString(16)}` })] } }
    if (n % 3 !== 0) return { from, to }
    return {
      from,
      to: TOKEN,
      input: `0xa9059cbb${word(to.slice(2)).slice(2)}${word((n + 1).toString(16)).slice(2)}`,
      logs: [{ address: TOKEN, topics: [TRANSFER, word(from.slice(2)), word(to.slice(2))], data: word((n + 1).toString(16)) }],
    }
  })
  return syntheticBundle(number, txs)
}

let folder: { dir: string; file: string }
let file: Database
let pool: SQL
const apps: Listening[] = []
const on: Record<'sqlite' | 'postgres', { explorer: string; exchange: string; etherscan: string }> = {} as never
let imported: string

/** Every stream derived from the spool to its head, in the passes the follower runs. */
async function derive(writer: SpoolWriter, streams: StreamDefinition[]): Promise<void> {
  for (const stream of streams) {
    for (;;) {
      const pass = await runPass(writer, stream, HEAD, { historyFrom: HEAD - 64 })
      if (pass.caughtUp) break
    }
  }
}

beforeAll(async () => {
  folder = configDir(`[database]\nschema = "${SCHEMA}"\n`)
  const path = join(folder.dir, 'data', 'spool.db')
  const streams = createStreams(parseConfig('', null))
  // The embedded stack's spool, its streams derived as it derives them.
  const writer = openSpool(path, streams.flatMap((stream) => stream.migrations))
  for (let first = 0; first < BLOCKS; first += 50) await writeBatch(sqliteWriter(writer), Array.from({ length: 50 }, (_, offset) => block(first + offset)))
  await derive(sqliteWriter(writer), streams)
  closeSpool(writer)

  // The switch: the copy, then the streams derived again on the database.
  const url = await (await testPostgres()).database('switch')
  const copy = await runOnce(fromSource, ['db', 'import', '--config', folder.file], { cwd: folder.dir, env: { STACK_DATABASE_URL: url } })
  expect([copy.code, copy.stderr]).toEqual([0, ''])
  imported = copy.stdout
  pool = connectPostgres(url, { schema: SCHEMA, max: 8 })
  await migratePostgres(pool, SCHEMA, [...postgresSpoolMigrations, ...postgresStreamMigrations(streams)])
  await derive(postgresWriter(pool, { schema: SCHEMA }), streams)

  file = openReader(path)
  const health = { ...emptyHealth(78270), spoolHeadBlock: HEAD, nodeHeadBlock: HEAD, lagBlocks: 0, nodeReachable: true, tracesAvailable: true }
  const toml = `[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[registry]\nsource = "${join(ROOT, 'registry')}"\n[explorer]\nrateLimitPerMinute = 1000000000\n[etherscan]\nrateLimitPerMinute = 1000000000\n`
  for (const [engine, reader] of [['sqlite', sqliteDb(file)], ['postgres', postgresDb(pool)]] as Array<['sqlite' | 'postgres', SpoolDb]>) {
    const spool = fixedSpool(path, reader, { health })
    // Answers are not kept: each is made again from the engine it is asked of.
    const explorer = serveOnFreePort(createExplorerApp(testContext(toml), spool, { answerCacheMs: 0, collectionCacheMs: 0 }), 'explorer')
    const exchange = serveOnFreePort(createExchangeApp(testContext(toml), spool), 'exchange')
    const etherscan = serveOnFreePort(createEtherscanApp(testContext(toml), spool), 'etherscan')
    apps.push(explorer, exchange, etherscan)
    on[engine] = { explorer: explorer.url, exchange: exchange.url, etherscan: etherscan.url }
  }
}, 240_000)

afterAll(async () => {
  for (const app of apps) await app.stop()
  await pool?.close()
  file?.close()
  if (folder) rmSync(folder.dir, { recursive: true, force: true })
})

test('the copy carries every transaction of the spool and says so', () => {
  expect(imported).toMatch(new RegExp(`copied ${BLOCKS.toLocaleString('en-US')} blocks, ${(BLOCKS * PER_BLOCK).toLocaleString('en-US')} transactions and [\\d,]+ logs \\([\\d,]+ rows\\) in [\\d.]+ s`))
})

test('every route answers from the database what it answered from the embedded file', async () => {
  const tx = (number: number, index: number) => `0x${String(0).padStart(2, '0')}${String(number).padStart(30, '0')}${String(index).padStart(32, '0')}`
  const explorer = [
    '/stats', '/overview', '/blocks', '/blocks?limit=50&offset=400', '/blocks?active=1&limit=5', '/txs', '/txs?limit=7&offset=3', '/txs?limit=50&offset=5000', '/accounts?limit=20', '/accounts?limit=20&offset=100',
    '/tokens', '/charts?limit=30', '/fees', '/minis',
    '/block/0', `/block/${HEAD}`, '/block/500?limit=25&offset=100', `/tx/${tx(HEAD, 3)}`, `/tx/${tx(1, 0)}`, `/tx/${tx(321, 40)}`,
    ...[ALICE, TOKEN, account(123)].flatMap((address) => [
      `/address/${address}`, `/address/${address}/transactions`, `/address/${address}/transactions?limit=25&offset=200`, `/address/${address}/token-transfers`, `/address/${address}/internal`,
    ]),
    `/token/${TOKEN}/holders`, `/token/${TOKEN}/holders?limit=25&offset=50`, `/token/${TOKEN}/transfers`, `/token/${TOKEN}/transfers?limit=25&offset=1000`,
    `/search?q=${tx(700, 9)}`, `/search?q=${ALICE}`, '/search?q=500',
  ].map((path) => `${'explorer'}:/api${path}`)
  const exchange = ['/pools', '/tokens', '/swaps', '/events', '/stats', '/cl/pools', '/cl/positions'].map((path) => `exchange:${path}`)
  const account_ = (action: string, more = '') => `etherscan:/api?module=account&action=${action}&address=${ALICE}${more}`
  const etherscan = [
    account_('txlist', '&page=1&offset=100&sort=desc'), account_('txlist', '&page=3&offset=50&sort=asc'), account_('txlist', `&startblock=200&endblock=300&sort=asc`),
    account_('tokentx', '&page=1&offset=100&sort=desc'), account_('tokentx', `&contractaddress=${TOKEN}&page=2&offset=25`), account_('txlistinternal', '&sort=desc'),
    `etherscan:/api?module=account&action=txlistinternal&startblock=0&endblock=${HEAD}&page=1&offset=30`,
    `etherscan:/api?module=logs&action=getLogs&address=${TOKEN}&fromBlock=900&toBlock=${HEAD}&page=1&offset=100`,
    `etherscan:/api?module=logs&action=getLogs&fromBlock=10&toBlock=12&topic0=${TRANSFER}&topic1=${word(ALICE.slice(2))}&topic0_1_opr=and`,
    `etherscan:/api?module=block&action=getblockreward&blockno=${HEAD}`, 'etherscan:/api?module=block&action=getblocknobytime&timestamp=1500&closest=before',
    `etherscan:/api?module=transaction&action=gettxreceiptstatus&txhash=${tx(0, 1)}`, `etherscan:/api?module=transaction&action=getstatus&txhash=${tx(0, 0)}`,
  ]
  let ok = 0
  for (const route of [...explorer, ...exchange, ...etherscan]) {
    const [service, path] = [route.slice(0, route.indexOf(':')), route.slice(route.indexOf(':') + 1)] as ['explorer' | 'exchange' | 'etherscan', string]
    const [embedded, fromPostgres] = await Promise.all([answerOf(`${on.sqlite[service]}${path}`), answerOf(`${on.postgres[service]}${path}`)])
    expect([service, path, fromPostgres]).toEqual([service, path, embedded])
    if (embedded.startsWith('200') && !embedded.includes('"message":"No ')) ok++
  }
  // Every route answers 200, and every Etherscan list finds records: the comparison is of real answers.
  expect(ok).toBe(explorer.length + exchange.length + etherscan.length)
}, 120_000)
