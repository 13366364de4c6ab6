import { sqliteDb } from '../spool/sqlite/engine.ts'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openSpool } from '../spool/sqlite/db.ts'
import { emptyHealth } from '../spool/health.ts'
import { LiveNode } from './node.ts'
import { StatsService } from './stats.ts'
import { explorerMigrations } from './stream.ts'
import { ChainTally } from './tally.ts'

// A node behind a balancer can answer a head older than what the spool already wrote (another
// replica, or a tick a second old): the stats never show the chain behind the index.
const lagging = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: async (request) => {
    const calls = (await request.json()) as Array<{ id: number; method: string }>
    return Response.json(calls.map((call) => ({ jsonrpc: '2.0', id: call.id, result: call.method === 'eth_blockNumber' ? '0x5' : '0x3b9aca00' })))
  },
})
afterAll(() => lagging.stop(true))

test('latestBlock is never behind indexedBlock, and indexLag never negative', async () => {
  const db = openSpool(join(mkdtempSync(join(tmpdir(), 'stack-explorer-stats-')), 'spool.db'), explorerMigrations)
  const health = () => ({ ...emptyHealth(78270), spoolHeadBlock: 9, nodeHeadBlock: 9, nodeReachable: true })
  const stats = new StatsService(sqliteDb(db), health, new ChainTally(sqliteDb(db)), new LiveNode(`http://127.0.0.1:${lagging.port}`, 1000), (error) => {
    throw error
  })
  await stats.tick()
  expect(await stats.stats()).toMatchObject({ latestBlock: 9, indexedBlock: 9, indexLag: 0, nodeReachable: true, gasPrice: '1000000000' })
})

test('a spool that cannot write says why in the stats; null while it can', async () => {
  const db = openSpool(join(mkdtempSync(join(tmpdir(), 'stack-explorer-stats-')), 'spool.db'), explorerMigrations)
  let storageError: string | null = 'the spool cannot write /data/spool.db: the disk is full; free some space on its disk'
  const health = () => ({ ...emptyHealth(78270), spoolHeadBlock: 0, storageError })
  const stats = new StatsService(
    sqliteDb(db),
    health,
    new ChainTally(sqliteDb(db)),
    new LiveNode(`http://127.0.0.1:${lagging.port}`, 1000),
    (error) => {
      throw error
    },
    0,
  )
  await stats.tick()
  expect((await stats.stats()).spoolError).toBe(storageError)
  storageError = null
  await stats.tick()
  expect((await stats.stats()).spoolError).toBeNull()
})
