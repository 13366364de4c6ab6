import { SQL } from 'bun'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { fillBlocks } from '../helpers/chainLoad.ts'
import { startNode, type RunningNode } from '../helpers/devChain.ts'
import { startPostgresServer, type PostgresServer } from '../helpers/postgresServer.ts'
import { configDir, fromSource, ROOT, startStack, type RunningStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// The indexer's lease under faults, on a server of this file's own (it is restarted): a busy
// chain caught up by indexers that are killed with -9 one after another, each time taken over
// by a standby, with nothing missing or written twice; an indexer frozen past its heartbeat and
// thawed once another took over, which then writes nothing; the database restarted under the
// indexer, which goes on by itself.

const SCHEMA = 'chain'
const BLOCKS = 400
const TXS_PER_BLOCK = 25
/** A lease of 2.5 s (heartbeats every half second): each takeover waits that out. */
const LEASE_MS = 2500
/** What each request to the node costs, in front of it: the catch-up lasts through every kill. */
const NODE_DELAY_MS = 100

let server: PostgresServer
let node: RunningNode
let slowNode: { url: string; stop: () => void }
let db: SQL
let url: string
let toml: string
const running: RunningStack[] = []
const dirs: string[] = []

const WRITING = 'holds the indexer lease: writing'
const STANDING_BY = 'standing by for the indexer lease'

/** A new indexer instance, in a folder of its own; resolves once it holds the lease or stands by. */
async function indexer(): Promise<RunningStack> {
  const { dir, file } = configDir(toml)
  dirs.push(dir)
  const stack = await startStack(fromSource, ['start', '--role', 'indexer', '--config', file], {
    cwd: dir,
    env: { ...(process.env as Record<string, string>), STACK_DATABASE_URL: url },
    timeoutMs: 60_000,
    listeners: 0,
    until: (line) => line.msg === WRITING || line.msg === STANDING_BY,
  })
  running.push(stack)
  return stack
}

/** Whether the instance still runs (one killed by a signal has no exit code). */
const alive = (stack: RunningStack) => stack.child.exitCode === null && stack.child.signalCode === null
const writing = (stack: RunningStack) => stack.lines.find((line) => line.msg === WRITING) as { epoch: number; holder: string } | undefined
const cursor = async () => Number(((await db.unsafe(`SELECT value FROM "${SCHEMA}".meta WHERE key = 'cursor'`)) as Array<{ value: string }>)[0]?.value ?? -1)
const lease = async () => ((await db.unsafe(`SELECT holder, epoch FROM "${SCHEMA}".stack_leases WHERE name = 'indexer'`)) as Array<{ holder: string; epoch: string }>)[0]

/** The instance writing now and one standing by, started when the tests before left none. */
async function holderAndStandby(): Promise<{ holder: RunningStack; standby: RunningStack }> {
  const holder = running.find((stack) => alive(stack) && writing(stack)) ?? (await indexer())
  const standby = running.find((stack) => stack !== holder && alive(stack)) ?? (await indexer())
  expect(writing(holder)).toBeDefined()
  return { holder, standby }
}

/** Waits until one of `stacks` writes under an epoch above `above`; gives it. */
async function takeover(stacks: RunningStack[], above: number): Promise<RunningStack> {
  let found: RunningStack | undefined
  await waitFor(() => (found = stacks.find((stack) => (writing(stack)?.epoch ?? 0) > above)) !== undefined, 'a standby to take the lease over', 20_000)
  expect(writing(found!)!.epoch).toBe(above + 1)
  return found!
}

/** The spool in the database against the chain: every block once, every transaction once, and the tally's count of them. */
async function expectWholeChain(head: number): Promise<void> {
  const [blocks] = (await db.unsafe(`SELECT count(*) AS n, min(number) AS low, max(number) AS high, sum(tx_count) AS txs FROM "${SCHEMA}".blocks`)) as Array<Record<string, string>>
  expect({ blocks: Number(blocks!.n), low: Number(blocks!.low), high: Number(blocks!.high) }).toEqual({ blocks: head + 1, low: 0, high: head })
  const [txs] = (await db.unsafe(`SELECT count(*) AS n, count(DISTINCT hash) AS hashes FROM "${SCHEMA}".txs`)) as Array<Record<string, string>>
  expect({ txs: Number(txs!.n), hashes: Number(txs!.hashes) }).toEqual({ txs: Number(blocks!.txs), hashes: Number(blocks!.txs) })
  expect(Number(blocks!.txs)).toBeGreaterThanOrEqual(BLOCKS * TXS_PER_BLOCK)
  // The tally counted each transaction once, across every takeover: a pass repeated by a new
  // holder after a kill would have counted its blocks twice.
  await waitFor(async () => Number(((await db.unsafe(`SELECT block_number FROM "${SCHEMA}".stream_cursors WHERE name = 'tally'`)) as Array<{ block_number: string }>)[0]?.block_number ?? -1) === head, 'the tally at the head', 60_000)
  const [totals] = (await db.unsafe(`SELECT blocks, transactions FROM "${SCHEMA}".explorer_totals`)) as Array<Record<string, string>>
  expect({ blocks: Number(totals!.blocks), transactions: Number(totals!.transactions) }).toEqual({ blocks: head + 1, transactions: Number(blocks!.txs) })
}

beforeAll(async () => {
  server = await startPostgresServer()
  url = await server.database('failover')
  db = new SQL({ url, max: 2 })
  node = await startNode()
  await fillBlocks(node, { blocks: BLOCKS, txsPerBlock: TXS_PER_BLOCK })
  slowNode = delayed(node.rpcUrl, NODE_DELAY_MS)
  // Small requests, one at a time, to a slow node: the catch-up lasts through every kill.
  toml = `[chain]\nrpc = "${slowNode.url}"\nws = "${node.wsUrl}"\n[registry]\nsource = "${ROOT}/registry"\n[spool]\nbatchBlocks = 2\nconcurrency = 1\n[database]\nschema = "${SCHEMA}"\nleaseMs = ${LEASE_MS}\n`
}, 240_000)

/** The node at `target`, each request answered `ms` later. */
function delayed(target: string, ms: number): { url: string; stop: () => void } {
  const proxy = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      const body = await request.text()
      await Bun.sleep(ms)
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      return new Response(await answer.text(), { status: answer.status, headers: { 'content-type': 'application/json' } })
    },
  })
  return { url: `http://127.0.0.1:${proxy.port}`, stop: () => proxy.stop(true) }
}

afterAll(async () => {
  for (const stack of running) if (alive(stack)) stack.child.kill('SIGKILL')
  slowNode?.stop()
  await db?.close()
  await node?.stop()
  server?.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

test('the indexer killed with -9 ten times during a catch-up: a standby takes over each time, and no block is missing or written twice', async () => {
  let holder = await indexer()
  let standby = await indexer()
  expect(writing(holder)).toBeDefined()
  expect(writing(standby)).toBeUndefined()
  const head = Number(await node.rpc.call<string>('eth_blockNumber'))
  for (let kill = 0; kill < 10; kill++) {
    // The holder has written since it took over: it dies in the middle of its catch-up.
    const from = await cursor()
    await waitFor(async () => (await cursor()) > from, 'the holder to write', 30_000)
    expect(await cursor()).toBeLessThan(head)
    const epoch = writing(holder)!.epoch
    holder.child.kill('SIGKILL')
    await holder.child.exited
    // Another standby starts while the dead holder's lease lapses: whichever takes it over, the other stands by.
    const replacement = await indexer()
    const standbys = [standby, replacement]
    holder = await takeover(standbys, epoch)
    standby = standbys.find((stack) => stack !== holder)!
    expect(writing(holder)!.epoch).toBe(epoch + 1)
    expect(writing(standby)).toBeUndefined()
    expect((await lease())!.holder).toBe(writing(holder)!.holder)
  }
  await waitFor(async () => (await cursor()) === head, 'the last holder at the head', 120_000)
  await expectWholeChain(head)
}, 600_000)

test('an indexer frozen past its heartbeat, taken over, then thawed: it writes nothing more and stops', async () => {
  const { holder, standby } = await holderAndStandby()
  const epoch = writing(holder)!.epoch
  const head = Number(await node.rpc.call<string>('eth_blockNumber'))
  holder.child.kill('SIGSTOP')
  const next = await takeover([standby], epoch)
  expect(next).toBe(standby)
  // New blocks for the new holder to write, while the frozen one still believes it holds the lease.
  await fillBlocks(node, { blocks: 10, txsPerBlock: TXS_PER_BLOCK })
  holder.child.kill('SIGCONT')
  expect(await holder.child.exited).not.toBe(0)
  await holder.stop()
  const said = holder.lines.map((line) => String(line.error ?? line.msg)).join('\n')
  expect(said).toMatch(/lease of epoch \d+ (is no longer held|was lost)/)
  await waitFor(async () => (await cursor()) === head + 10, 'the new holder at the head', 60_000)
  await expectWholeChain(head + 10)
}, 300_000)

test('PostgreSQL restarted under the indexer: it reconnects and goes on, nothing lost', async () => {
  const { holder } = await holderAndStandby()
  const start = Number(await node.rpc.call<string>('eth_blockNumber'))
  const filling = fillBlocks(node, { blocks: 30, txsPerBlock: TXS_PER_BLOCK })
  await Bun.sleep(500)
  server.kill()
  await Bun.sleep(1000)
  server.start()
  await filling
  const head = start + 30
  await waitFor(async () => (await cursor().catch(() => -1)) === head, 'the indexer at the head after the restart', 120_000)
  expect(alive(holder)).toBe(true)
  await expectWholeChain(head)
}, 300_000)
