import { afterAll, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { devNode, startDevChain, type DevChain } from '../helpers/devChain.ts'
import { configDir, fromSource, ROOT, startReadyStack, type ReadyStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// A dev chain that outlives a restart (dev.state) and one that starts from another (dev.fork).

type Body = Record<string, any>
const get = async (address: string): Promise<Body> => (await fetch(address)).json() as Promise<Body>
const running: ReadyStack[] = []
let remote: DevChain | null = null
afterAll(async () => {
  for (const stack of running) if (stack.child.exitCode === null) await stack.stop()
  await remote?.stop()
})
const ready = async (file: string, cwd: string) => {
  const stack = await startReadyStack(fromSource, ['dev', '--config', file], { cwd })
  running.push(stack)
  return stack
}
const explorer = (stack: ReadyStack) => stack.status.services.explorer.url as string
const logged = (stack: ReadyStack, message: string) => stack.log().map((line) => JSON.parse(line) as Body).find((line) => line.msg === message)

test('dev.state: the chain is saved at stop and loaded at start, deployed once, and the spool resumes with it', async () => {
  const { dir, file } = configDir(`[dev]\nport = 0\nstate = "chain/state.json"\n[registry]\nsource = "${ROOT}/registry"\n`)
  const state = join(dir, 'chain/state.json')
  const first = await ready(file, dir)
  expect(first.status.state).toBe(state)
  expect(logged(first, 'contracts deployed')).toBeDefined()
  // Something only this chain has: a drip to a fresh address.
  const address = privateKeyToAccount(generatePrivateKey()).address
  const drip = await fetch(`${first.status.services.faucet.url}/drip`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address }) })
  expect(drip.status).toBe(200)
  const { hash } = (await drip.json()) as { hash: string }
  await waitFor(async () => (await fetch(`${explorer(first)}/api/tx/${hash}`)).status === 200, 'the drip in the explorer')
  const genesis = (await get(`${explorer(first)}/api/block/0`)).hash
  const stopHead = await devNode(first.status.rpcUrl).head()
  expect(await first.stop()).toBe(0)
  expect(existsSync(state)).toBe(true)

  const second = await ready(file, dir)
  // Deploy once: the saved chain keeps its contracts and history, nothing is deployed or seeded again.
  expect(logged(second, 'contracts deployed')).toBeUndefined()
  expect(logged(second, 'the contract set is already on this chain (deploy once): kept as it is, nothing deployed or seeded')).toBeDefined()
  expect(second.status.contracts).toEqual(first.status.contracts)
  expect(second.status.snapshot.block).toBeGreaterThanOrEqual(stopHead)
  // The spool kept its identity and resumed: not started afresh, same genesis, the drip still there.
  expect(logged(second, 'spool started')).toMatchObject({ fresh: false })
  expect((await get(`${explorer(second)}/api/block/0`)).hash).toBe(genesis)
  expect((await get(`${explorer(second)}/api/tx/${hash}`)).hash).toBe(hash)
  expect(BigInt((await get(`${second.status.services.faucet.url}/status?address=${address}`)).retryIn)).toBeGreaterThan(0n)
  expect(await second.stop()).toBe(0)
}, 120_000)

test('dev.fork: a fork of another anvil starts with its history, keeps its contracts and goes on from the fork block', async () => {
  remote = await startDevChain()
  // A fork block with transactions: anvil gives no trace_block for the block a fork starts from.
  let forkBlock = (await remote.head()) - 3
  while ((await remote.clients.publicClient.getBlockTransactionCount({ blockNumber: BigInt(forkBlock) })) === 0) forkBlock--
  const { dir, file } = configDir(`[dev]\nport = 0\n[dev.fork]\nurl = "${remote.rpcUrl}"\nblock = ${forkBlock}\n[registry]\nsource = "${ROOT}/registry"\n`)
  const stack = await ready(file, dir)
  expect(stack.status.fork).toEqual({ url: remote.rpcUrl, block: forkBlock })
  expect(logged(stack, 'contracts deployed')).toBeUndefined()
  const remoteBlock = async (number: number) => (await remote!.clients.publicClient.getBlock({ blockNumber: BigInt(number) })).hash
  // The fork's history, as the explorer serves it from the spool.
  for (const number of [0, 1, forkBlock]) expect((await get(`${explorer(stack)}/api/block/${number}`)).hash).toBe(await remoteBlock(number))
  const seeded = (await remote.clients.publicClient.getBlock({ blockNumber: 5n, includeTransactions: false })).transactions[0]!
  expect((await get(`${explorer(stack)}/api/tx/${seeded}`)).hash).toBe(seeded)
  const atFork = (await remote.clients.publicClient.getBlock({ blockNumber: BigInt(forkBlock) })).transactions[0]!
  expect((await get(`${explorer(stack)}/api/tx/${atFork}`)).traces).toHaveLength(1)
  const pools = (await get(`${stack.status.services.exchange.url}/pools`)).pools
  expect(pools.length).toBeGreaterThanOrEqual(3)
  // Then its own blocks: the one after the fork block is not the remote's.
  await waitFor(async () => (await get(`${explorer(stack)}/api/stats`)).indexedBlock > forkBlock, 'a block of the fork past the fork block')
  expect((await get(`${explorer(stack)}/api/block/${forkBlock + 1}`)).hash).not.toBe(await remoteBlock(forkBlock + 1))
  expect(await stack.stop()).toBe(0)
}, 120_000)
