import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keccak256, toHex } from 'viem'
import { createRpc } from '../../src/chain/rpc.ts'
import { openReader, openSpool } from '../../src/spool/db.ts'
import { Follower } from '../../src/spool/follower.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import { eventTable } from '../../src/spool/kit/tables.ts'
import { readStreamCursor, type StreamDefinition } from '../../src/spool/streams.ts'
import type { Anvil } from '../helpers/anvil.ts'
import { chainWithActivity, deposits, expectMirror, waitFor } from './helpers.ts'

const DEPOSIT = keccak256(toHex('Deposit(address,uint256)'))

/** A toy derived stream: one row per WETH deposit, so a rollback has something to undo. */
const depositStream: StreamDefinition = {
  name: 'deposits',
  migrations: [{ id: 'test/deposits', sql: 'CREATE TABLE deposits (tx_id INTEGER, log_index INTEGER, block_number INTEGER, PRIMARY KEY (tx_id, log_index))' }],
  topics: [DEPOSIT],
  // Declared, so the spool rolls it back: the stream itself writes no rollback code.
  tables: [eventTable('deposits')],
  apply: (db, logs) => {
    const insert = db.prepare('INSERT INTO deposits (tx_id, log_index, block_number) VALUES (?, ?, ?)')
    for (const log of logs) insert.run(log.txId, log.logIndex, log.blockNumber)
  },
}

let anvil: Anvil
let weth: string
let db: Database
let reader: Database
let health: SpoolHealth
const abort = new AbortController()
let running: Promise<void>
const rpc = () => createRpc(anvil.rpcUrl)
const nodeHead = async () => Number.parseInt(await rpc().call<string>('eth_blockNumber'), 16)
/** Waits until the spool and the stream stand at the node's head, whatever it is by then. */
const caughtUp = async () => {
  let head = -1
  await waitFor(async () => {
    head = await nodeHead()
    return health?.spoolHeadBlock === head && health.streams.deposits?.cursorBlock === head
  }, 'the spool and the stream at the head').catch((error) => {
    throw new Error(`${error.message} ${head}; health: ${JSON.stringify(health)}`)
  })
  return head
}
const nodeDeposits = async () => (await rpc().call<unknown[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', topics: [DEPOSIT] }])).length
const streamDeposits = () => reader.query<{ n: number }, []>('SELECT count(*) AS n FROM deposits').get()!.n

beforeAll(async () => {
  const chain = await chainWithActivity()
  anvil = chain.anvil
  weth = chain.manifest.contracts.WETH9
  const path = join(mkdtempSync(join(tmpdir(), 'stack-reorg-')), 'spool.db')
  db = openSpool(path, depositStream.migrations)
  reader = openReader(path)
  const follower = new Follower(db, {
    path,
    rpc: createRpc(anvil.rpcUrl),
    wsUrl: anvil.wsUrl,
    chainId: 78270,
    startBlock: 0,
    batchBlocks: 10,
    concurrency: 2,
    pollMs: 50,
    maxReorgDepth: 100,
    streams: [depositStream],
    maxLogsPerPass: 4,
    log: () => {},
    onHealth: (next) => (health = next),
  })
  running = follower.run(abort.signal)
})
afterAll(async () => {
  abort.abort()
  await running
  await anvil?.stop()
})

describe('derived streams', () => {
  test('a stream reads its logs in passes of at most the limit and catches up', async () => {
    await deposits(anvil.rpcUrl, weth, 9)
    const head = await caughtUp()
    expect(streamDeposits()).toBe(await nodeDeposits())
    expect(readStreamCursor(reader, 'deposits').blockNumber).toBe(head)
  })
})

describe('reorganisations', () => {
  test('anvil_reorg replaces the last blocks: the spool drops the orphans and takes the new ones', async () => {
    await deposits(anvil.rpcUrl, weth, 5)
    const before = await caughtUp()
    const orphans = reader.query<{ hash: Uint8Array }, [number]>('SELECT hash FROM txs WHERE block_number > ?').all(before - 3)
    expect(orphans.length).toBeGreaterThan(0)
    await rpc().call('anvil_reorg', [3, []])
    await waitFor(async () => {
      const row = reader.query<{ hash: Uint8Array }, [number]>('SELECT hash FROM blocks WHERE number = ?').get(before)
      const node = await rpc().call<{ hash: string }>('eth_getBlockByNumber', [`0x${before.toString(16)}`, false])
      return row && `0x${Buffer.from(row.hash).toString('hex')}` === node.hash
    }, 'the reorganised blocks')
    const head = await caughtUp()
    expect(await expectMirror(reader, anvil.rpcUrl, head)).toEqual([])
    for (const { hash } of orphans) {
      expect(reader.query('SELECT 1 FROM txs WHERE hash = ?').get(hash)).toBeNull()
    }
    expect(streamDeposits()).toBe(await nodeDeposits())
  })

  test('a revert to a snapshot and a different chain after it', async () => {
    const snapshot = await rpc().call<string>('evm_snapshot')
    const base = await nodeHead()
    await deposits(anvil.rpcUrl, weth, 6)
    await caughtUp()
    const abandoned = await nodeHead()
    await rpc().call('evm_revert', [snapshot])
    await deposits(anvil.rpcUrl, weth, 2)
    const head = await caughtUp()
    expect(head).toBeGreaterThan(base)
    expect(head).toBeLessThan(abandoned)
    expect(await expectMirror(reader, anvil.rpcUrl, head)).toEqual([])
    expect(reader.query<{ n: number }, [number]>('SELECT count(*) AS n FROM blocks WHERE number > ?').get(head)!.n).toBe(0)
    expect(streamDeposits()).toBe(await nodeDeposits())
  })
})
