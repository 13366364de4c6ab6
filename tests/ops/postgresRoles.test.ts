import { afterAll, beforeAll, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Rpc } from '../../src/chain/rpc.ts'
import { DEV_OPERATOR_KEY } from '../../src/devnet/accounts.ts'
import { openReader } from '../../src/spool/sqlite/db.ts'
import { insertRows } from '../helpers/engines.ts'
import { testPostgres } from '../helpers/postgres.ts'
import { answerOf, seededRoutes } from '../helpers/routes.ts'
import { stillSeededDevStack, type StillDevStack } from '../helpers/seededDevStack.ts'
import { configDir, fromSource, ROOT, runOnce, startStack, type RunningStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// One indexer and two api instances on PostgreSQL against the seeded dev chain, beside the
// `stack dev` that made the chain (on its embedded file): once both are at the stopped head,
// every route of the explorer and the exchange index answers the same from each api instance
// as from the embedded stack, but for the fields that name the moment (docs/operating.md).

let dev: StillDevStack
let indexer: RunningStack
const apis: RunningStack[] = []
const dirs: string[] = []
let head: number
let node: Rpc
let env: Record<string, string>
let toml: string

/** The instance's own folder (its data, its runtime file) with the shared config. */
function instanceConfig(): { dir: string; file: string } {
  const made = configDir(toml)
  dirs.push(made.dir)
  return made
}

async function startInstance(role: 'indexer' | 'api'): Promise<RunningStack> {
  const { dir, file } = instanceConfig()
  return startStack(fromSource, ['start', '--role', role, '--config', file], {
    cwd: dir,
    env,
    timeoutMs: 60_000,
    listeners: role === 'api' ? 4 : 0,
    until: (line) => role === 'api' || line.msg === 'holds the indexer lease: writing',
  })
}

/** An answer with what names the moment it was made taken out: when a figure was last updated, the age of a price. */
function withoutTheMoment(answer: string): string {
  return answer.replace(/"(spoolUpdatedAt|updatedAt)":("[^"]*"|\d+|null)/g, '"$1":"·"')
}

beforeAll(async () => {
  // The chain stands still: both stacks answer of one head.
  dev = await stillSeededDevStack()
  node = dev.node
  head = Number(await node.call<string>('eth_blockNumber'))
  await waitFor(async () => {
    const stats = await dev.api<{ indexedBlock: number; derivedLag: number }>('/stats')
    return stats.indexedBlock === head && stats.derivedLag === 0
  }, 'the embedded stack at the stopped head', 30_000)
  // Every route asked once of the embedded stack now: what it resolves from the node (an NFT's
  // token URI) in the background is in hand by the time the routes are compared.
  const routes = await seededRoutes(dev.stack.urls.explorer!, dev.stack.urls.exchange!)
  for (const [service, paths] of [['explorer', routes.explorer], ['exchange', routes.exchange]] as const) for (const path of paths) await answerOf(`${dev.stack.urls[service]}${path}`)
  const url = await (await testPostgres()).database('roles')
  env = { ...(process.env as Record<string, string>), STACK_DATABASE_URL: url, FAUCET_OPERATOR_KEY: '' }
  toml = `[chain]\nrpc = "${dev.nodeUrl}"\nws = "${dev.nodeWs}"\n[registry]\nsource = "${ROOT}/registry"\n[explorer]\nport = 0\nrateLimitPerMinute = 1000000000\n[database]\nschema = "chain"\n`
  indexer = await startInstance('indexer')
  // The verifications `stack dev` made of its own contracts are no chain data: the operator makes
  // them again on the database (or `stack db import` carries them); here they are copied over.
  await copyVerifications(url)
  // Each is kept as soon as it runs, so that a failed start of the next still stops it.
  for (let count = 0; count < 2; count++) apis.push(await startInstance('api'))
  for (const api of apis) {
    await waitFor(async () => {
      const stats = (await (await fetch(`${api.urls.explorer}/api/stats`)).json()) as { indexedBlock: number; derivedLag: number }
      return stats.indexedBlock === head && stats.derivedLag === 0
    }, 'the api instance at the stopped head', 120_000)
    for (const [service, paths] of [['explorer', routes.explorer], ['exchange', routes.exchange]] as const) for (const path of paths) await answerOf(`${api.urls[service]}${path}`)
  }
}, 300_000)

/** The embedded stack's verification records, written into the database once the indexer has made its tables. */
async function copyVerifications(url: string): Promise<void> {
  const file = openReader(join(dev.dir, 'data', 'spool.db'))
  const db = new SQL({ url, max: 1 })
  try {
    await waitFor(async () => ((await db.unsafe("SELECT 1 FROM pg_tables WHERE schemaname = 'chain' AND tablename = 'verified_proxies'")) as unknown[]).length === 1, 'the indexer\'s tables', 30_000)
    for (const table of ['verified_contracts', 'verified_proxies']) {
      const rows = file.query<Record<string, unknown>, []>(`SELECT * FROM ${table}`).all()
      expect(rows.length + (table === 'verified_proxies' ? 1 : 0)).toBeGreaterThan(0)
      if (rows.length === 0) continue
      const columns = Object.keys(rows[0]!)
      await insertRows(db, 'chain', table, columns, rows.map((row) => columns.map((column) => row[column])))
    }
  } finally {
    file.close()
    await db.close()
  }
}

afterAll(async () => {
  for (const api of apis) await api.stop()
  await indexer?.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

test('an api instance opens no faucet without the key, and an indexer opens no port', () => {
  for (const api of apis) expect(Object.keys(api.urls).sort()).toEqual(['arcade', 'etherscan', 'exchange', 'explorer'])
  expect(indexer.urls).toEqual({})
})

/** Every route of both services asked of the embedded stack and of each api instance: the same answers; gives how many were 200. */
async function compareRoutes(): Promise<number> {
  const routes = await seededRoutes(dev.stack.urls.explorer!, dev.stack.urls.exchange!)
  let compared = 0
  for (const [service, paths] of [['explorer', routes.explorer], ['exchange', routes.exchange]] as const) {
    for (const path of paths) {
      // What a route asks of the node (an NFT's token URI, say) each instance resolves on its own
      // time, and a collection's answer is kept for 15 s: a route whose answers differ is asked
      // again, for up to 20 s, until each instance has what the node says.
      const origins = [dev.stack.urls[service]!, ...apis.map((api) => api.urls[service]!)]
      const ask = async () => (await Promise.all(origins.map((origin) => answerOf(`${origin}${path}`)))).map(withoutTheMoment)
      let answers = await ask()
      for (let tries = 0; tries < 80 && answers.some((answer) => answer !== answers[0]); tries++) {
        await Bun.sleep(250)
        answers = await ask()
      }
      const [embedded, ...fromPostgres] = answers
      for (const answer of fromPostgres) expect([service, path, answer]).toEqual([service, path, embedded!])
      if (embedded!.startsWith('200')) compared++
    }
  }
  return compared
}

/** Each stack's explorer has block `number` as the node has it now. */
async function allAt(number: number): Promise<void> {
  const { hash } = (await node.call<{ hash: string }>('eth_getBlockByNumber', [`0x${number.toString(16)}`, false]))!
  for (const origin of [dev.stack.urls.explorer!, ...apis.map((api) => api.urls.explorer!)]) {
    await waitFor(async () => {
      const block = (await (await fetch(`${origin}/api/block/${number}`)).json()) as { hash?: string }
      const stats = (await (await fetch(`${origin}/api/stats`)).json()) as { derivedLag: number }
      return block.hash?.toLowerCase() === hash.toLowerCase() && stats.derivedLag === 0
    }, `${origin} at the node's block ${number}`, 60_000)
  }
}

test('every route answers the same from two api instances on PostgreSQL as from the embedded stack', async () => {
  expect(await compareRoutes()).toBeGreaterThan(60)
}, 180_000)

test('a reorganisation is followed alike: the indexer rolls back on PostgreSQL, and every route still answers as the embedded stack', async () => {
  // The last three blocks replaced by others at the same height, one of them with a transfer the old ones did not hold.
  const [from] = await node.call<string[]>('eth_accounts')
  await node.call('anvil_reorg', [3, [[{ from, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' }, 1]]])
  const after = Number(await node.call<string>('eth_blockNumber'))
  expect(after).toBe(head)
  await allAt(head)
  expect(await compareRoutes()).toBeGreaterThan(60)
}, 240_000)

test('an api instance started before any indexer answers as a fresh stack does before its first block', async () => {
  // Both against a node that never answers: neither has a block; the api's schema is one no indexer made.
  const unreached = `[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[registry]\nsource = "${ROOT}/registry"\n`
  const onFile = configDir(unreached)
  const onDatabase = configDir(`${unreached}[database]\nschema = "nothing_yet"\n`)
  dirs.push(onFile.dir, onDatabase.dir)
  const fresh = await startStack(fromSource, ['start', '--config', onFile.file], { cwd: onFile.dir, timeoutMs: 30_000 })
  const early = await startStack(fromSource, ['start', '--role', 'api', '--config', onDatabase.file], { cwd: onDatabase.dir, env, timeoutMs: 30_000, listeners: 4 })
  try {
    for (const [service, path] of [['explorer', '/api/blocks'], ['explorer', '/api/txs'], ['explorer', '/api/tokens'], ['exchange', '/pools'], ['exchange', '/swaps'], ['etherscan', '/api?module=proxy&action=eth_blockNumber']] as const) {
      const [embedded, database] = await Promise.all([answerOf(`${fresh.urls[service]}${path}`), answerOf(`${early.urls[service]}${path}`)])
      expect([service, path, database]).toEqual([service, path, embedded])
    }
    const stats = (await (await fetch(`${early.urls.explorer}/api/stats`)).json()) as { indexedBlock: number | null }
    expect(stats.indexedBlock).toBeNull()
  } finally {
    await early.stop()
    await fresh.stop()
  }
}, 90_000)

test('the faucet opens on one instance with the key; a second with it stands aside; once the first has stopped, the next one opens it', async () => {
  const withKey = { ...env, FAUCET_OPERATOR_KEY: DEV_OPERATOR_KEY }
  const start = async (listeners: number) => {
    const { dir, file } = instanceConfig()
    return startStack(fromSource, ['start', '--role', 'api', '--config', file], { cwd: dir, env: withKey, timeoutMs: 30_000, listeners })
  }
  const first = await start(5)
  try {
    expect(first.urls.faucet).toBeDefined()
    const second = await start(4)
    try {
      expect(second.urls.faucet).toBeUndefined()
      expect(second.lines.find((line) => line.msg === 'another instance serves the faucet (it holds the faucet lease): this one does not open the faucet')).toBeDefined()
    } finally {
      await second.stop()
    }
    // A clean stop gives the lease up: the next instance with the key opens the faucet at once.
    await first.stop()
    const third = await start(5)
    expect(third.urls.faucet).toBeDefined()
    await third.stop()
  } finally {
    if (first.child.exitCode === null && first.child.signalCode === null) await first.stop()
  }
}, 90_000)

test('/health on an api instance says its role and who holds the indexer lease; on the embedded stack, nothing of it', async () => {
  const holder = indexer.lines.find((line) => line.msg === 'holds the indexer lease: writing')!.holder as string
  for (const url of [`${apis[0]!.urls.explorer}/api/health`, `${apis[1]!.urls.exchange}/health`, `${apis[0]!.urls.etherscan}/health`]) {
    const body = (await (await fetch(url)).json()) as { database: { role: string; schema: string; indexer: { holder: string; epoch: number } } }
    expect({ url, role: body.database.role, schema: body.database.schema, holder: body.database.indexer.holder }).toEqual({ url, role: 'api', schema: 'chain', holder })
  }
  expect((await (await fetch(`${dev.stack.urls.explorer}/api/health`)).json()) as object).not.toHaveProperty('database')
})

test('stack status says the role, the database, its head and who holds the indexer lease', async () => {
  const { dir, file } = { dir: dirs[1]!, file: `${dirs[1]}/stack.toml` }
  const { stdout, code } = await runOnce(fromSource, ['status', '--json', '--config', file], { cwd: dir, env })
  expect(code).toBe(0)
  const status = JSON.parse(stdout)
  expect(status.database).toMatchObject({ schema: 'chain', role: 'api', head, lagBlocks: 0 })
  expect(status.database.indexer.holder).toBe(indexer.lines.find((line) => line.msg === 'holds the indexer lease: writing')!.holder)
  expect(status.services.faucet).toMatchObject({ url: null, served: false })
})
