import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { openSpool, type Database } from '../../src/spool/sqlite/db.ts'
import { COPIED_TABLES } from '../../src/spool/postgres/importSqlite.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { writeBatch } from '../../src/spool/store.ts'
import { postgresRows, sqliteRows } from '../helpers/engines.ts'
import { testPostgres } from '../helpers/postgres.ts'
import { callFrame, syntheticBundle } from '../helpers/spoolBlocks.ts'
import { configDir, fromSource, runOnce } from '../helpers/stack.ts'

// `stack db import` as an operator runs it: the spool of a stack's data folder copied into the
// schema the config names, row for row, with its progress and what it copied said; every way it
// cannot be done said in one line on stderr with exit 1, nothing half copied.

const ALICE: Hex = '0x1111111111111111111111111111111111111111'
const TOKEN: Hex = '0x3333333333333333333333333333333333333333'
const SCHEMA = 'imported'

let folder: { dir: string; file: string }
let spool: Database
let url: string

beforeAll(async () => {
  folder = configDir(`[database]\nschema = "${SCHEMA}"\n`)
  spool = openSpool(join(folder.dir, 'data', 'spool.db'))
  const blocks = Array.from({ length: 60 }, (_, number) =>
    syntheticBundle(number, [
      { from: ALICE, to: TOKEN, input: '0xa9059cbb', logs: [{ address: TOKEN, topics: [`0x${'dd'.repeat(32)}`], data: '0x01' }] },
      { from: ALICE, to: TOKEN, trace: { calls: [callFrame(TOKEN, ALICE, { value: '0x5' })] } },
    ]),
  )
  await writeBatch(sqliteWriter(spool), blocks)
  url = await (await testPostgres()).database('import')
}, 60_000)
afterAll(() => spool?.close())

const run = (args: string[], env: Record<string, string> = {}) => runOnce(fromSource, args, { cwd: folder.dir, env })

test('copies every table of the spool, says how far and what it copied, and a second copy into the same schema is refused', async () => {
  const { stdout, stderr, code } = await run(['db', 'import', '--config', folder.file], { STACK_DATABASE_URL: url })
  expect([code, stderr]).toEqual([0, ''])
  expect(stdout).toContain(`copying ${join(folder.dir, 'data', 'spool.db')} into schema "${SCHEMA}" at 127.0.0.1:`)
  expect(stdout).toContain('txs: 120 of 120 rows')
  expect(stdout).toMatch(/copied 60 blocks, 120 transactions and 60 logs \(\d+ rows\) in [\d.]+ s/)
  const db = new SQL(url, { max: 1 })
  try {
    for (const table of COPIED_TABLES) {
      if (table === 'meta') continue
      expect([table, await postgresRows(db, SCHEMA, table, spool)]).toEqual([table, sqliteRows(spool, table)])
    }
  } finally {
    await db.close()
  }
  const again = await run(['db', 'import', '--config', folder.file], { STACK_DATABASE_URL: url })
  expect(again.code).toBe(1)
  expect(again.stderr).toBe(`stack: the schema "${SCHEMA}" already holds a spool (60 blocks): copy only into an empty schema, or name another\n`)
}, 60_000)

test('a database that cannot be reached, one that does not exist, no database named, no spool: one line each, exit 1', async () => {
  const unreachable = await run(['db', 'import', '--config', folder.file], { STACK_DATABASE_URL: 'postgres://stack@127.0.0.1:9/chain' })
  expect(unreachable.code).toBe(1)
  expect(unreachable.stderr).toStartWith('stack: the database at 127.0.0.1:9/chain cannot be reached (')
  expect(unreachable.stderr.trim().split('\n')).toHaveLength(1)
  const missing = await run(['db', 'import', '--config', folder.file], { STACK_DATABASE_URL: url.replace(/\/[^/]+$/, '/no_such_db') })
  expect(missing.code).toBe(1)
  expect(missing.stderr).toMatch(/^stack: the database at 127\.0\.0\.1:\d+\/no_such_db does not exist \(.*\): create it \(createdb\) or name another in database\.url\n$/)
  const none = await run(['db', 'import', '--config', folder.file])
  expect([none.code, none.stderr]).toEqual([1, 'stack: stack db import copies the spool into PostgreSQL: name the database in database.url (or STACK_DATABASE_URL)\n'])
  const empty = configDir()
  const noSpool = await runOnce(fromSource, ['db', 'import', '--config', empty.file], { cwd: empty.dir, env: { STACK_DATABASE_URL: url } })
  expect(noSpool.code).toBe(1)
  expect(noSpool.stderr).toBe(`stack: there is no spool at ${join(empty.dir, 'data', 'spool.db')} to copy: point data.dir at the folder of the stack whose spool to copy\n`)
}, 60_000)

test('a stack whose database cannot be reached refuses to start, in one line, before it opens anything', async () => {
  const { code, stderr, stdout } = await run(['start', '--config', folder.file], { STACK_DATABASE_URL: 'postgres://stack@127.0.0.1:1/chain', STACK_DATABASE_PASSWORD: 'hunter2' })
  expect(code).toBe(1)
  expect(stderr).toStartWith('stack: the database at 127.0.0.1:1/chain cannot be reached')
  expect(stderr.trim().split('\n')).toHaveLength(1)
  expect(stderr).not.toContain('hunter2')
  expect(stdout).not.toContain('"msg":"listening"')
})

test('stack dev refuses a database, and --role needs one', async () => {
  const dev = await run(['dev', '--config', folder.file], { STACK_DATABASE_URL: 'postgres://stack@127.0.0.1:1/chain' })
  expect(dev.code).toBe(1)
  expect(dev.stderr).toStartWith('stack: the config names the database at 127.0.0.1:1/chain, but stack dev keeps its chain\'s spool in its own file')
  const api = await run(['start', '--role', 'api', '--config', folder.file], { STACK_DATABASE_URL: '' })
  expect(api.code).toBe(1)
  expect(api.stderr).toStartWith('stack: --role api is for a stack on a database, which instances share')
  const bogus = await runOnce(fromSource, ['start', '--role', 'writer'])
  expect(bogus.code).toBe(2)
  expect(bogus.stderr).toContain("--role must be one of all, indexer, api, not 'writer'")
})

test.each([
  [['db'], "db needs a command: 'stack db import'"],
  [['db', 'export'], "unknown db command 'export'"],
  [['db', 'import', 'extra'], "unexpected argument 'extra'"],
  [['db', 'import', '--json'], '--json is not an option of db import'],
])('%p prints the usage and exits 2', async (args, message) => {
  const { stderr, code } = await runOnce(fromSource, args)
  expect(code).toBe(2)
  expect(stderr).toContain(message)
  expect(stderr).toContain('stack db import')
})
