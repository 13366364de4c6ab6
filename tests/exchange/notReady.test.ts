import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createExchangeApp } from '../../src/exchange/app.ts'
import { openReader, openSpool } from '../../src/spool/sqlite/db.ts'
import { migrate } from '../../src/spool/sqlite/migrations.ts'
import { createStreams } from '../../src/streams.ts'
import { fixedSpool } from '../helpers/fixedSpool.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'

// A spool whose streams never ran: the spool's own tables are there, the exchange's are not.
const path = join(mkdtempSync(join(tmpdir(), 'stack-exchange-')), 'spool.db')
const writer = openSpool(path)
const reader = openReader(path)
const spool = fixedSpool(path, sqliteDb(reader), { close: () => reader.close() })
const context = testContext()
const app = serveOnFreePort(createExchangeApp(context, spool), 'exchange')
afterAll(async () => {
  await app.stop()
  await spool.stop()
  writer.close()
})

const ROUTES = [
  '/health',
  '/pools',
  `/pool/0x${'11'.repeat(20)}`,
  '/tokens',
  '/swaps',
  '/events',
  '/stats',
  '/cl/pools',
  `/cl/pool/${'22'.repeat(20)}`,
  '/cl/tiers',
  '/cl/positions',
  `/cl/ticks?pool=${'33'.repeat(20)}`,
  '/cl/swaps',
  '/cl/events',
]

test('before the streams made their tables, every route answers 503 with the first line of the driver', async () => {
  for (const route of ROUTES) {
    for (const path of [route, `/api${route}`]) {
      const response = await fetch(`${app.url}${path}`)
      expect(response.status).toBe(503)
      const body = (await response.json()) as { error: string }
      expect(body.error).toMatch(/^no such table: \w+$/)
    }
  }
})

test('a malformed parameter is still a 400, not a 503', async () => {
  expect((await fetch(`${app.url}/swaps?limit=x`)).status).toBe(400)
})

test('once the tables exist the same app answers, without a restart', async () => {
  migrate(
    writer,
    createStreams(context.config).flatMap((stream) => stream.migrations),
  )
  for (const route of ROUTES) {
    const response = await fetch(`${app.url}${route}`)
    // The pools these routes name are unknown: the 404 of an unknown pool.
    const unknownPool = route.startsWith('/pool/') || route.startsWith('/cl/pool/') || route.startsWith('/cl/ticks')
    expect([route, response.status]).toEqual([route, unknownPool ? 404 : 200])
  }
  expect(await (await fetch(`${app.url}/pools`)).json()).toEqual({ pools: [], ethUsd: null })
})
