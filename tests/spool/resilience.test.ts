import { openReader } from '../../src/spool/sqlite/db.ts'
import { afterAll, expect, test } from 'bun:test'
import { captureLog } from '../helpers/service.ts'
import { startDevChain, startNode, type RunningNode } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { startSpool, SpoolIdentityError, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { deposits, expectMirror, rpcProxy, spoolConfig } from './helpers.ts'

const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

test('a node that goes away and comes back: the spool says so, waits, and resumes without a gap', async () => {
  const anvil = await startDevChain()
  cleanup.push(() => anvil.stop())
  const proxy = rpcProxy(anvil.rpcUrl)
  cleanup.push(() => proxy.stop())
  const { log, lines } = captureLog()
  const config = spoolConfig(proxy.url, null)
  const spool = await startSpool(config, spoolWiring(config), log, { fresh: true })
  cleanup.push(() => spool.stop())
  const first = await anvil.head()
  // The backfill's writes are reported before the step that made them ends and marks the node reachable.
  await waitFor(() => spool.health().spoolHeadBlock === first && spool.health().nodeReachable, 'the backfill')

  proxy.stop()
  await waitFor(() => spool.health().nodeReachable === false, 'the spool to notice the node is gone')
  expect(spool.health().lastError).toContain('cannot be reached')
  expect(lines.some((line) => line.msg === 'node unreachable; retrying')).toBe(true)
  await deposits(anvil.rpcUrl, anvil.manifest.contracts.WETH9, 12)

  proxy.start()
  const head = await anvil.head()
  await waitFor(() => spool.health().spoolHeadBlock === head && spool.health().nodeReachable, 'the spool to resume', 30_000)
  expect(await expectMirror(openReader(spool.path), anvil.rpcUrl, head)).toEqual([])
})

test('a block gone from the node history: the spool stops before it and says so, never leaving a hole', async () => {
  const anvil = await startNode()
  cleanup.push(() => anvil.stop())
  await anvil.mine(20)
  const pruned = 12
  // A node that forgot block 12, as a node with a short history window does.
  const proxy = rpcProxy(anvil.rpcUrl, (call, result) => (call.method === 'eth_getBlockByNumber' && (call.params?.[0] as string) === `0x${pruned.toString(16)}` ? null : result))
  cleanup.push(() => proxy.stop())
  const { log, lines } = captureLog()
  const config = spoolConfig(proxy.url, null, 'batchBlocks = 5\n')
  const spool = await startSpool(config, spoolWiring(config), log, { fresh: true })
  cleanup.push(() => spool.stop())
  const health = await waitFor(() => spool.health().historyGap && spool.health(), 'the gap to be reported')
  expect(health.historyGap).toEqual({ from: pruned, to: 20 })
  expect(health.spoolHeadBlock).toBe(pruned - 1)
  expect(lines.some((line) => line.level === 50 && String(line.msg).includes('history window'))).toBe(true)
  const stored = (await spool.reader.get<{ n: number }>('SELECT count(*) AS n FROM blocks WHERE number >= ?', pruned))!
  expect(stored.n).toBe(0)
})

test('a spool of one chain refuses a node of another, naming both', async () => {
  const first: RunningNode = await startNode()
  cleanup.push(() => first.stop())
  const config = spoolConfig(first.rpcUrl, null)
  const spool: Spool = await startSpool(config, spoolWiring(config), captureLog().log, { fresh: true })
  await waitFor(() => spool.health().genesisHash, 'the identity to be recorded')
  const genesis = spool.health().genesisHash!
  await spool.stop()

  // Another chain with the same id: only its genesis (a different genesis time) tells it apart.
  const second: RunningNode = await startNode({ args: ['--timestamp', '1700000000'] })
  cleanup.push(() => second.stop())
  const elsewhere = { ...config, chain: { ...config.chain, rpc: second.rpcUrl } }
  const refused = await startSpool(elsewhere, spoolWiring(elsewhere), captureLog().log).catch((error) => error)
  expect(refused).toBeInstanceOf(SpoolIdentityError)
  expect(refused.message).toContain(genesis)
  const other = await second.clients.publicClient.getBlock({ blockNumber: 0n })
  expect(refused.message).toContain(other.hash)

  // A fresh spool (what stack dev does with its new chain) takes the new chain.
  const fresh = await startSpool(elsewhere, spoolWiring(elsewhere), captureLog().log, { fresh: true })
  cleanup.push(() => fresh.stop())
  await waitFor(() => fresh.health().genesisHash === other.hash, 'the new identity')
})

test('a node that comes back as another chain stops the spool with the identity error', async () => {
  const first: RunningNode = await startNode()
  cleanup.push(() => first.stop())
  const proxy = rpcProxy(first.rpcUrl)
  cleanup.push(() => proxy.stop())
  const config = spoolConfig(proxy.url, null)
  const spool = await startSpool(config, spoolWiring(config), captureLog().log, { fresh: true })
  cleanup.push(() => spool.stop())
  await waitFor(() => spool.health().genesisHash, 'the identity to be recorded')
  const port = Number(new URL(proxy.url).port)
  proxy.stop()
  await waitFor(() => spool.health().nodeReachable === false, 'the node to be gone')

  // The same address now leads to another chain.
  const second: RunningNode = await startNode({ args: ['--timestamp', '1600000000'] })
  cleanup.push(() => second.stop())
  const impostor = rpcProxy(second.rpcUrl, undefined, [], port)
  cleanup.push(() => impostor.stop())
  const stopped = await Promise.race([spool.fatal, Bun.sleep(15_000).then(() => null)])
  expect(stopped?.message).toContain('holds chain 78270 (genesis')
})
