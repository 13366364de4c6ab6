import type { SQL } from 'bun'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { join } from 'node:path'
import { createExchangeApp } from '../../src/exchange/app.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import type { Database } from '../../src/spool/sqlite/db.ts'
import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import type { SpoolDb } from '../../src/spool/engine.ts'
import { emptyHealth } from '../../src/spool/health.ts'
import { postgresDb } from '../../src/spool/postgres/reader.ts'
import { fixedSpool } from '../helpers/fixedSpool.ts'
import { answerOf, seededRoutes } from '../helpers/routes.ts'
import { frozenOnBothEngines } from '../helpers/spoolEngines.ts'
import { stillSeededDevStack, type StillDevStack } from '../helpers/seededDevStack.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { ROOT } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// The explorer's and the exchange index's every read over PostgreSQL: the seeded dev chain's
// spool copied into a schema (the copy `stack db import` makes), its derived tables made there as
// the embedded engine has them, and each route of both services asked of an app over each
// engine, with the node stopped so that nothing moves: the same bytes from both.

let dev: StillDevStack
let file: Database
let pool: SQL
const apps: Listening[] = []
let on: { sqlite: { explorer: string; exchange: string }; postgres: { explorer: string; exchange: string } }

beforeAll(async () => {
  // The chain stands still: no block, so every answer is of one head on both engines.
  dev = await stillSeededDevStack()
  const { nodeUrl, node } = dev
  const head = Number(await node.call<string>('eth_blockNumber'))
  await waitFor(async () => (await dev.api<{ indexedBlock: number }>('/stats')).indexedBlock === head, 'the spool at the head', 30_000)
  const { frozen, ...copies } = await frozenOnBothEngines(join(dev.dir, 'data', 'spool.db'), 'explorer', { derived: true })
  ;({ file, pool } = copies)

  const health = { ...emptyHealth(78270), spoolHeadBlock: head, nodeHeadBlock: head, lagBlocks: 0, nodeReachable: true, tracesAvailable: true }
  const spoolOver = (reader: SpoolDb) => fixedSpool(frozen, reader, { health })
  const toml = `[chain]\nrpc = "${nodeUrl}"\nws = "ws://127.0.0.1:9"\n[registry]\nsource = "${join(ROOT, 'registry')}"\n[explorer]\nrateLimitPerMinute = 1000000000\n`
  const serve = (reader: SpoolDb) => {
    // Answers are not kept: each is made again from the engine it is asked of.
    const explorer = serveOnFreePort(createExplorerApp(testContext(toml), spoolOver(reader), { answerCacheMs: 0, collectionCacheMs: 0 }), 'explorer')
    const exchange = serveOnFreePort(createExchangeApp(testContext(toml), spoolOver(reader)), 'exchange')
    apps.push(explorer, exchange)
    return { explorer: explorer.url, exchange: exchange.url }
  }
  on = { sqlite: serve(sqliteDb(file)), postgres: serve(postgresDb(pool)) }
  for (const side of [on.sqlite, on.postgres]) await waitFor(async () => (await fetch(`${side.explorer}/api/tokenlist`)).status === 200, 'the registry copy', 10_000)
}, 120_000)
afterAll(async () => {
  for (const app of apps) await app.stop()
  await pool?.close()
  file?.close()
})

test('every route of the explorer and the exchange index answers the same from PostgreSQL as from the embedded file', async () => {
  const routes = await seededRoutes(on.sqlite.explorer, on.sqlite.exchange)
  let compared = 0
  for (const [service, paths] of [['explorer', routes.explorer], ['exchange', routes.exchange]] as const) {
    for (const path of paths) {
      // What a page asks of the node (an NFT's metadata, a token's symbol) is asked once first on
      // each side, so that a slow first answer of the node (its time limit) is no difference.
      await answerOf(`${on.sqlite[service]}${path}`)
      await answerOf(`${on.postgres[service]}${path}`)
      const [fromFile, fromPostgres] = await Promise.all([answerOf(`${on.sqlite[service]}${path}`), answerOf(`${on.postgres[service]}${path}`)])
      expect([service, path, fromPostgres]).toEqual([service, path, fromFile])
      if (fromFile.startsWith('200')) compared++
    }
  }
  expect(compared).toBeGreaterThan(60)
}, 120_000)
