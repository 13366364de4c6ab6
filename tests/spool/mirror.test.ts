import { openReader } from '../../src/spool/sqlite/db.ts'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { silentLogger } from '../../src/log.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { deposits, expectMirror, spoolConfig } from './helpers.ts'

let chain: DevChain
let spool: Spool
let weth: string

beforeAll(async () => {
  chain = await startDevChain()
  weth = chain.manifest.contracts.WETH9
  // Small batches so the backfill spans many transactions and several rounds of fetches.
  const config = spoolConfig(chain.rpcUrl, chain.wsUrl, 'batchBlocks = 7\nconcurrency = 3\n')
  spool = await startSpool(config, spoolWiring(config), silentLogger, { fresh: true })
})
afterAll(async () => {
  await spool?.stop()
  await chain?.stop()
})

const nodeHead = () => chain.head()

test('after the backfill the spool equals the node', async () => {
  const head = await nodeHead()
  await waitFor(() => spool.health().spoolHeadBlock === head, 'the backfill')
  expect(await expectMirror(openReader(spool.path), chain.rpcUrl, head)).toEqual([])
  const health = spool.health()
  expect(health).toMatchObject({ chainId: 78270, spoolHeadBlock: head, nodeHeadBlock: head, lagBlocks: 0, nodeReachable: true, tracesAvailable: true })
  expect(health.genesisHash).toMatch(/^0x[0-9a-f]{64}$/)
})

test('while following the head, new blocks arrive and still equal the node', async () => {
  await deposits(chain.rpcUrl, weth, 40)
  const head = await nodeHead()
  await waitFor(() => spool.health().spoolHeadBlock === head, 'the new blocks')
  expect(await expectMirror(openReader(spool.path), chain.rpcUrl, head)).toEqual([])
})

test('mini-blocks: one per block, timestamp in microseconds', async () => {
  const rows = await spool.reader.all<{ number: number; block_number: number; timestamp_us: number; timestamp: number; minis: number; txs: number }>(
    'SELECT m.number, m.block_number, m.timestamp_us, b.timestamp, m.tx_count AS minis, b.tx_count AS txs FROM minis m JOIN blocks b ON b.number = m.block_number',
  )
  expect(rows.length).toBe(spool.health().spoolHeadBlock! + 1)
  for (const row of rows) {
    expect(row.number).toBe(row.block_number)
    expect(row.timestamp_us).toBe(row.timestamp * 1_000_000)
    expect(row.minis).toBe(row.txs)
  }
})

test('amounts are stored as exact decimal strings, and every transaction has its call trace', async () => {
  const values = await spool.reader.all<{ value: unknown }>('SELECT value FROM txs')
  for (const { value } of values) expect(typeof value).toBe('string')
  expect(values.some(({ value }) => value === '1000000000000000000000')).toBe(true)
  const missing = (await spool.reader.get<{ n: number }>('SELECT count(*) AS n FROM txs WHERE id NOT IN (SELECT tx_id FROM traces)'))!
  expect(missing.n).toBe(0)
  const nested = (await spool.reader.get<{ n: number }>(`SELECT count(*) AS n FROM traces WHERE trace LIKE '%"c":[%'`))!
  expect(nested.n).toBeGreaterThan(0)
})

test('a log is keyed by its transaction and its index', async () => {
  const duplicates = (await spool.reader.get<{ n: number }>('SELECT count(*) AS n FROM (SELECT tx_id, log_index FROM logs GROUP BY tx_id, log_index HAVING count(*) > 1)'))!
  expect(duplicates.n).toBe(0)
})
