import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keccak256, toHex } from 'viem'
import { parseConfig } from '../../src/config/load.ts'
import { tallyStream } from '../../src/explorer/tallyStream.ts'
import { openReader, openSpool } from '../../src/spool/sqlite/db.ts'
import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { Follower } from '../../src/spool/follower.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import { eventTable } from '../../src/spool/kit/tables.ts'
import { readStreamCursor, type StreamDefinition } from '../../src/spool/streams.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { countTally, dumpTally, storedTally } from '../helpers/tally.ts'
import { waitFor } from '../helpers/wait.ts'
import { deposits, expectMirror, followerOptions } from './helpers.ts'

const DEPOSIT = keccak256(toHex('Deposit(address,uint256)'))

/** A toy derived stream: one row per WETH deposit, so a rollback has something to undo. */
const depositStream: StreamDefinition = {
  name: 'deposits',
  migrations: [{ id: 'test/deposits', sql: 'CREATE TABLE deposits (tx_id INTEGER, log_index INTEGER, block_number INTEGER, PRIMARY KEY (tx_id, log_index))' }],
  topics: [DEPOSIT],
  // Declared, so the spool rolls it back: the stream itself writes no rollback code.
  tables: [eventTable('deposits')],
  apply: async (tx, logs) => {
    for (const log of logs) await tx.run('INSERT INTO deposits (tx_id, log_index, block_number) VALUES (?, ?, ?)', log.txId, log.logIndex, log.blockNumber)
  },
}

/** A stream driven by blocks rather than logs: the explorer's tally, which keeps versioned state. */
const tally = tallyStream(parseConfig('', null))

/** The tally's history entries of blocks up to `block`: a rollback above it must leave them as they are. */
const historyThrough = (block: number) =>
  Object.entries(dumpTally(reader))
    .filter(([table]) => table.endsWith('_history'))
    .map(([table, rows]) => [table, rows.filter((row) => JSON.parse(row).block <= block)])

let chain: DevChain
let weth: string
let db: Database
let reader: Database
let health: SpoolHealth
const abort = new AbortController()
let running: Promise<void>
const nodeHead = () => chain.head()
/** Waits until the spool and the stream stand at the node's head, whatever it is by then. */
const caughtUp = async () => {
  let head = -1
  await waitFor(async () => {
    head = await nodeHead()
    return health?.spoolHeadBlock === head && health.streams.deposits?.cursorBlock === head && health.streams.tally?.cursorBlock === head
  }, 'the spool and the streams at the head').catch((error) => {
    throw new Error(`${error.message} ${head}; health: ${JSON.stringify(health)}`)
  })
  return head
}
const nodeDeposits = async () => (await chain.rpc.call<unknown[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [DEPOSIT] }])).length
const streamDeposits = () => reader.query<{ n: number }, []>('SELECT count(*) AS n FROM deposits').get()!.n

beforeAll(async () => {
  chain = await startDevChain()
  weth = chain.manifest.contracts.WETH9
  const path = join(mkdtempSync(join(tmpdir(), 'stack-reorg-')), 'spool.db')
  db = openSpool(path, [...depositStream.migrations, ...tally.migrations])
  reader = openReader(path)
  const follower = new Follower(sqliteWriter(db), followerOptions(chain.rpcUrl, { path, wsUrl: chain.wsUrl, streams: [depositStream, tally], maxLogsPerPass: 4, onHealth: (next) => (health = next) }))
  running = follower.run(abort.signal)
})
afterAll(async () => {
  abort.abort()
  await running
  await chain?.stop()
})

describe('derived streams', () => {
  test('a stream reads its logs in passes of at most the limit and catches up', async () => {
    await deposits(chain.rpcUrl, weth, 9)
    const head = await caughtUp()
    expect(streamDeposits()).toBe(await nodeDeposits())
    expect((await readStreamCursor(sqliteDb(reader), 'deposits')).blockNumber).toBe(head)
    expect(storedTally(reader)).toEqual(await countTally(reader))
  })
})

describe('reorganisations', () => {
  test('anvil_reorg replaces the last blocks: the spool drops the orphans and takes the new ones', async () => {
    await deposits(chain.rpcUrl, weth, 5)
    const before = await caughtUp()
    const orphans = reader.query<{ hash: Uint8Array }, [number]>('SELECT hash FROM txs WHERE block_number > ?').all(before - 3)
    expect(orphans.length).toBeGreaterThan(0)
    const settled = historyThrough(before - 3)
    await chain.reorg(3)
    await waitFor(async () => {
      const row = reader.query<{ hash: Uint8Array }, [number]>('SELECT hash FROM blocks WHERE number = ?').get(before)
      const node = await chain.clients.publicClient.getBlock({ blockNumber: BigInt(before) })
      return row && `0x${Buffer.from(row.hash).toString('hex')}` === node.hash
    }, 'the reorganised blocks')
    const head = await caughtUp()
    expect(await expectMirror(reader, chain.rpcUrl, head)).toEqual([])
    for (const { hash } of orphans) {
      expect(reader.query('SELECT 1 FROM txs WHERE hash = ?').get(hash)).toBeNull()
    }
    expect(streamDeposits()).toBe(await nodeDeposits())
    // The tally is as a count of the new chain from scratch, and nothing below the fork was rewritten.
    expect(storedTally(reader)).toEqual(await countTally(reader))
    expect(historyThrough(before - 3)).toEqual(settled)
  })

  test('a revert to a snapshot and a different chain after it', async () => {
    const snapshot = await chain.test.snapshot()
    const base = await nodeHead()
    const settled = historyThrough(base)
    await deposits(chain.rpcUrl, weth, 6)
    await caughtUp()
    const abandoned = await nodeHead()
    await chain.test.revert({ id: snapshot })
    await deposits(chain.rpcUrl, weth, 2)
    const head = await caughtUp()
    expect(head).toBeGreaterThan(base)
    expect(head).toBeLessThan(abandoned)
    expect(await expectMirror(reader, chain.rpcUrl, head)).toEqual([])
    expect(reader.query<{ n: number }, [number]>('SELECT count(*) AS n FROM blocks WHERE number > ?').get(head)!.n).toBe(0)
    expect(streamDeposits()).toBe(await nodeDeposits())
    expect(storedTally(reader)).toEqual(await countTally(reader))
    expect(historyThrough(base)).toEqual(settled)
  })
})
