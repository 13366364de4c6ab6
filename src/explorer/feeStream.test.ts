import { sqliteDb, sqliteWriter } from '../spool/sqlite/engine.ts'
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { encodeAbiParameters } from 'viem'
import { parseConfig } from '../config/load.ts'
import { blob } from '../eth/bytes.ts'
import { migrate } from '../spool/sqlite/migrations.ts'
import type { SpoolLog } from '../spool/streams.ts'
import { applyFeeLogs, feeRouterAbi, feeStream } from './feeStream.ts'
import { feeTotals, latestFeeMovements } from './read/fees.ts'
import { eventTopics } from '../eth/events.ts'

const ROUTER = '0dcd1bf9a1b36ce34237eeafef220932846bcd82'
const OTHER = '11'.repeat(20)
const PAYER = `0x${'22'.repeat(20)}` as const
const TOKEN = `0x${'33'.repeat(20)}` as const

let txId = 0
function log(emitter: string, eventName: string, args: Record<string, unknown>): SpoolLog {
  const event = feeRouterAbi.find((item) => item.type === 'event' && item.name === eventName) as unknown as { inputs: Array<{ name: string; type: string; indexed?: boolean }> }
  const topics = eventTopics(feeRouterAbi, eventName, args)
  const plain = event.inputs.filter((input) => !input.indexed)
  const data = encodeAbiParameters(
    plain,
    plain.map((input) => args[input.name]),
  )
  const [topic0, topic1, topic2, topic3] = topics.map((topic) => (topic ? blob(topic) : null))
  txId++
  return { txId, logIndex: 0, blockNumber: txId, address: blob(emitter), topic0: topic0 ?? null, topic1: topic1 ?? null, topic2: topic2 ?? null, topic3: topic3 ?? null, data: blob(data) }
}

function db() {
  const database = new Database(':memory:', { strict: true })
  migrate(database, feeStream(parseConfig('', null)).migrations)
  return database
}

test("the router's fees add up per source and side; the same events from another contract count for nothing", async () => {
  const database = db()
  await sqliteWriter(database).transaction((tx) =>
    applyFeeLogs(
      tx,
      [
        log(ROUTER, 'FeeReceived', { source: 0, from: PAYER, asset: '0x0000000000000000000000000000000000000000', amount: 50n }),
        log(ROUTER, 'FeeReceived', { source: 1, from: PAYER, asset: TOKEN, amount: 7n }),
        log(OTHER, 'FeeReceived', { source: 0, from: PAYER, asset: '0x0000000000000000000000000000000000000000', amount: 1000n }),
        log(ROUTER, 'Distributed', { caller: PAYER, ethBurned: 12n, ethToTreasury: 38n, tokenBurned: 1n, tokenToTreasury: 6n }),
        log(ROUTER, 'Claimed', { treasury: PAYER, eth: 38n, tokenAmount: 6n }),
      ],
      ROUTER,
    ),
  )
  const totals = Object.fromEntries([...(await feeTotals(sqliteDb(database), blob(ROUTER)))].map(([figure, total]) => [figure, [total.amount, total.count]]))
  expect(totals).toEqual({
    'received:launch:eth': [50n, 1],
    'received:name:token': [7n, 1],
    'burned:eth': [12n, 1],
    'burned:token': [1n, 1],
    'treasury:eth': [38n, 1],
    'treasury:token': [6n, 1],
    distributions: [0n, 1],
    'claimed:eth': [38n, 1],
    'claimed:token': [6n, 1],
    claims: [0n, 1],
  })
  expect((await latestFeeMovements(sqliteDb(database), blob(ROUTER), 10)).map((movement) => movement.kind)).toEqual(['claimed', 'distributed', 'received', 'received'])
  expect((await feeTotals(sqliteDb(database), blob(OTHER))).size).toBe(0)
})

test('with no router configured the stream derives nothing', async () => {
  const database = db()
  await sqliteWriter(database).transaction((tx) => applyFeeLogs(tx, [log(ROUTER, 'FeeReceived', { source: 2, from: PAYER, asset: '0x0000000000000000000000000000000000000000', amount: 5n })], null))
  expect((await feeTotals(sqliteDb(database), blob(ROUTER))).size).toBe(0)
})
