import { SQL } from 'bun'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { fillBlocks } from '../helpers/chainLoad.ts'
import { startNode, type RunningNode } from '../helpers/devChain.ts'
import { startPostgresServer, type PostgresReplica, type PostgresServer } from '../helpers/postgresServer.ts'
import { configDir, fromSource, ROOT, runOnce, startStack, type RunningStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// An api instance reading a streaming replica while it listens on the primary, on a server and a
// replica of this file's own (the replica's replay is paused): a head the indexer writes is
// taken up only once the replica has replayed it, and then without another head to wake it; an
// instance started while the replica is behind serves what it holds; a replica that is none, or
// cannot be reached, is refused in one line.

const SCHEMA = 'chain'

let server: PostgresServer
let replica: PostgresReplica
let node: RunningNode
let primary: SQL
let url: string
let toml: string
let indexer: RunningStack
let api: RunningStack
/** Every api instance started, stopped at the end. */
const apis: RunningStack[] = []
const dirs: string[] = []

function env(replicaUrl: string): Record<string, string> {
  return { ...(process.env as Record<string, string>), STACK_DATABASE_URL: url, STACK_DATABASE_REPLICA_URL: replicaUrl, FAUCET_OPERATOR_KEY: '' }
}

function folder(): { dir: string; file: string } {
  const made = configDir(toml)
  dirs.push(made.dir)
  return made
}

/** An api instance reading the replica, in a folder of its own; resolves once its four listeners answer. */
async function startApi(): Promise<RunningStack> {
  const { dir, file } = folder()
  const started = await startStack(fromSource, ['start', '--role', 'api', '--config', file], { cwd: dir, env: env(replica.urlOf(url)), timeoutMs: 60_000, listeners: 4 })
  apis.push(started)
  return started
}

/** The head an api instance answers of. */
const indexedBlock = async (instance = api) => ((await (await fetch(`${instance.urls.explorer}/api/stats`)).json()) as { indexedBlock: number }).indexedBlock
const cursor = async () => Number(((await primary.unsafe(`SELECT value FROM "${SCHEMA}".meta WHERE key = 'cursor'`)) as Array<{ value: string }>)[0]?.value ?? -1)
const health = async () => (await (await fetch(`${api.urls.explorer}/api/health`)).json()) as { database: { role: string; replica?: { where: string; behindMs: number } } }

beforeAll(async () => {
  server = await startPostgresServer()
  url = await server.database('replica')
  primary = new SQL({ url, max: 1 })
  replica = await server.replica()
  node = await startNode()
  await fillBlocks(node, { blocks: 12, txsPerBlock: 3 })
  toml = `[chain]\nrpc = "${node.rpcUrl}"\nws = "${node.wsUrl}"\n[registry]\nsource = "${ROOT}/registry"\n[explorer]\nport = 0\nrateLimitPerMinute = 1000000000\n[database]\nschema = "${SCHEMA}"\n`
  const forIndexer = folder()
  indexer = await startStack(fromSource, ['start', '--role', 'indexer', '--config', forIndexer.file], {
    cwd: forIndexer.dir,
    env: env(''),
    timeoutMs: 60_000,
    listeners: 0,
    until: (line) => line.msg === 'holds the indexer lease: writing',
  })
  api = await startApi()
  const head = await node.head()
  await waitFor(async () => (await indexedBlock()) === head, 'the api instance at the head, read from the replica', 60_000)
}, 180_000)

afterAll(async () => {
  await replica?.resumeReplay().catch(() => {})
  for (const instance of apis) await instance.stop()
  await indexer?.stop()
  await primary?.close()
  await node?.stop()
  replica?.stop()
  server?.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

test('a head the primary holds is taken up once the replica has replayed it, and not before', async () => {
  const before = await node.head()
  expect((await health()).database.replica).toEqual({ where: `127.0.0.1:${replica.port}/${new URL(url).pathname.slice(1)}`, behindMs: 0 })
  await replica.pauseReplay()
  const next = await node.mine(1)
  await waitFor(async () => (await cursor()) === next, 'the indexer to write the new head on the primary', 20_000)
  // The primary holds it and has told of it; the replica has not replayed it: the instance
  // answers from the head it had, and says how long its replica has been behind.
  await Bun.sleep(1000)
  expect(await indexedBlock()).toBe(before)
  expect((await fetch(`${api.urls.explorer}/api/block/${next}`)).status).toBe(404)
  expect((await health()).database.replica!.behindMs).toBeGreaterThan(500)
  // An instance started meanwhile serves what the replica holds, rather than wait for it.
  const late = await startApi()
  expect(await indexedBlock(late)).toBe(before)
  // Replayed, the head is taken up without another block to tell of it.
  await replica.resumeReplay()
  await waitFor(async () => (await indexedBlock()) === next, 'the api instance at the head the replica replayed', 10_000)
  await waitFor(async () => (await indexedBlock(late)) === next, 'the later instance too', 10_000)
  expect((await fetch(`${api.urls.explorer}/api/block/${next}`)).status).toBe(200)
  expect((await health()).database.replica!.behindMs).toBe(0)
  expect(await node.head()).toBe(next)
}, 60_000)

test('a replica that is the primary itself, or that cannot be reached, is refused in one line before any port opens', async () => {
  const { dir, file } = folder()
  const notReplaying = await runOnce(fromSource, ['start', '--role', 'api', '--config', file], { cwd: dir, env: env(url) })
  expect(notReplaying.code).toBe(1)
  expect(notReplaying.stderr).toMatch(/^stack: the database at 127\.0\.0\.1:\d+\/\S+ is not replaying 127\.0\.0\.1:\d+\/\S+'s log \(it is the primary, or was promoted\): leave database\.replicaUrl empty to read the primary, or name a standby\n$/)
  expect(notReplaying.stdout).not.toContain('"listening"')
  const unreachable = await runOnce(fromSource, ['start', '--role', 'api', '--config', file], { cwd: dir, env: env('postgres://stack@127.0.0.1:9/chain') })
  expect(unreachable.code).toBe(1)
  expect(unreachable.stderr).toStartWith('stack: the database at 127.0.0.1:9/chain cannot be reached (')
  expect(unreachable.stderr.trim().split('\n')).toHaveLength(1)
}, 60_000)
