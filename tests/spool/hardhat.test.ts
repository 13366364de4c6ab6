import { openReader } from '../../src/spool/sqlite/db.ts'
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { decodeEventLog, parseEther, parseUnits, type Address, type Hash, type Hex } from 'viem'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { ours } from '../../src/devnet/artifacts.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import { TRANSFER_TOPIC } from '../../src/explorer/transfers.ts'
import { startSpool, type Spool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { devNode, type DevNode } from '../helpers/devChain.ts'
import { startHardhat, type HardhatNode } from '../helpers/hardhat.ts'
import { captureLog, serveOnFreePort, testContext } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'
import { expectMirror, rpcProxy, spoolConfig } from './helpers.ts'

// The spool follows Hardhat's node as it follows anvil: a node without eth_getBlockReceipts and
// without call traces, whose refusals are told apart from blocks it does not have.

const { alice, bob, carol, deployer } = devAccounts
let node: HardhatNode
let dev: DevNode
let spool: Spool
let token: Address
const { log, lines } = captureLog()

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`
const head = () => dev.head()

/** The spool and its explorer stream both at the node's head, whatever it is by then. */
async function caughtUp(): Promise<number> {
  let at = -1
  await waitFor(async () => {
    at = await head()
    const health = spool.health()
    return health.spoolHeadBlock === at && health.streams.explorer?.cursorBlock === at
  }, 'the spool and its explorer stream at the head').catch((error) => {
    throw new Error(`${error.message} ${at}; health: ${JSON.stringify(spool.health())}; log: ${JSON.stringify(lines.slice(-5))}`)
  })
  return at
}

/** Token transfers as the node has them (its Transfer logs) and as the explorer stream derived them. */
async function transfers(): Promise<{ node: string[]; spool: string[] }> {
  const logs = await dev.rpc.call<Array<{ address: Hex; topics: [Hex, ...Hex[]]; data: Hex; transactionHash: Hash }>>('eth_getLogs', [
    { fromBlock: '0x0', toBlock: 'latest', topics: [TRANSFER_TOPIC] },
  ])
  const nodeRows = logs.map((entry) => {
    const { args } = decodeEventLog({ abi: ours.Token.abi, data: entry.data, topics: entry.topics }) as unknown as { args: { from: Address; to: Address; value: bigint } }
    return `${entry.transactionHash}:${entry.address.toLowerCase()}:${args.from.toLowerCase()}:${args.to.toLowerCase()}:${args.value}`
  })
  const spoolRows = (
    await spool.reader.all<{ tx: Uint8Array; token: Uint8Array; from_addr: Uint8Array; to_addr: Uint8Array; amount: string }>(
      'SELECT t.hash AS tx, x.token, x.from_addr, x.to_addr, x.amount FROM explorer_transfers x JOIN txs t ON t.id = x.tx_id ORDER BY x.tx_id, x.log_index',
    )
  ).map((row) => `${hex(row.tx)}:${hex(row.token)}:${hex(row.from_addr)}:${hex(row.to_addr)}:${row.amount}`)
  return { node: nodeRows, spool: spoolRows }
}

const sendTokens = (from: typeof alice, to: Address, amount: string) => dev.write(from, token, ours.Token.abi, 'transfer', [to, parseUnits(amount, 18)])
const storedTx = async (hash: Hash) => (await spool.reader.get<{ n: number }>('SELECT count(*) AS n FROM txs WHERE hash = ?', Buffer.from(hash.slice(2), 'hex')))!.n

beforeAll(async () => {
  node = await startHardhat()
  dev = devNode(node.rpcUrl)
  token = await dev.deploy(deployer, ours.Token, ['Hard Hat', 'HHT', 18, alice.address, parseUnits('1000000', 18)])
  await dev.send([
    { from: alice.address, to: bob.address, value: parseEther('1') },
    { from: bob.address, to: carol.address, value: parseEther('0.25') },
  ])
  await sendTokens(alice, bob.address, '100')
  await sendTokens(bob, carol.address, '7.5')
  const config = spoolConfig(node.rpcUrl, node.wsUrl, 'batchBlocks = 3\n')
  spool = await startSpool(config, spoolWiring(config), log, { fresh: true })
})
afterAll(async () => {
  await spool?.stop()
  await node?.stop()
})

test('the spool copies a Hardhat node: blocks, transactions, receipts and logs equal the node', async () => {
  const at = await caughtUp()
  expect(await expectMirror(openReader(spool.path), node.rpcUrl, at)).toEqual([])
  expect(lines.filter((line) => Number(line.level) >= 50)).toEqual([])
  const health = spool.health()
  expect(health).toMatchObject({ chainId: 78270, spoolHeadBlock: at, historyGap: null, tracesAvailable: false, nodeSocket: true })
  // No call traces from this node: transactions are stored without them.
  expect((await spool.reader.get<{ n: number }>('SELECT count(*) AS n FROM traces'))!.n).toBe(0)
  const { node: nodeTransfers, spool: spoolTransfers } = await transfers()
  expect(nodeTransfers).toHaveLength(3) // the mint at deployment, and two transfers
  expect(spoolTransfers).toEqual(nodeTransfers)
})

test('new blocks are copied as they come', async () => {
  await sendTokens(alice, carol.address, '3')
  await dev.send([{ from: carol.address, to: alice.address, value: 5n }])
  const at = await caughtUp()
  expect(await expectMirror(openReader(spool.path), node.rpcUrl, at)).toEqual([])
  const { node: nodeTransfers, spool: spoolTransfers } = await transfers()
  expect(spoolTransfers).toEqual(nodeTransfers)
})

test('the spool says once which methods the node lacks', async () => {
  const said = lines.filter((line) => String(line.msg).includes('the node lacks'))
  expect(said).toHaveLength(1)
  expect(said[0]!.missing).toEqual(['eth_getBlockReceipts', 'trace_block', 'debug_traceBlockByNumber'])
  expect(said[0]!.level).toBe(40)
})

test('a reorganisation by evm_revert: the reverted transactions go, the new branch is copied', async () => {
  const base = await caughtUp()
  const snapshot = await dev.rpc.call<Hex>('evm_snapshot')
  const reverted: Hash[] = [(await sendTokens(alice, bob.address, '11')).transactionHash]
  reverted.push(...(await dev.send([{ from: bob.address, to: carol.address, value: 11n }])))
  reverted.push((await sendTokens(bob, alice.address, '1')).transactionHash)
  expect(await caughtUp()).toBe(base + 3)
  for (const hash of reverted) expect(await storedTx(hash)).toBe(1)

  expect(await dev.rpc.call<boolean>('evm_revert', [snapshot])).toBe(true)
  const branch: Hash[] = [(await sendTokens(alice, carol.address, '22')).transactionHash]
  branch.push(...(await dev.send([{ from: carol.address, to: bob.address, value: 22n }])))
  const at = await caughtUp()
  expect(at).toBe(base + 2)

  for (const hash of reverted) expect(await storedTx(hash)).toBe(0)
  for (const hash of branch) expect(await storedTx(hash)).toBe(1)
  expect(await expectMirror(openReader(spool.path), node.rpcUrl, at)).toEqual([])
  const { node: nodeTransfers, spool: spoolTransfers } = await transfers()
  expect(spoolTransfers).toEqual(nodeTransfers)
  expect(lines.some((line) => line.msg === 'chain reorganised: rolled back to the common ancestor')).toBe(true)
})

test("the explorer reads a mini-block the spool lacks from Hardhat's node, its receipts one by one", async () => {
  // A second spool, reaching the node through a proxy that can be stopped: it lags behind, the
  // explorer over it still reaches the node.
  const proxy = rpcProxy(node.rpcUrl)
  const config = spoolConfig(proxy.url, null, '')
  const behind = await startSpool(config, spoolWiring(config), captureLog().log, { fresh: true })
  const context = testContext(`[chain]\nrpc = "${node.rpcUrl}"\nws = "${node.wsUrl}"\n[explorer]\nrateLimitPerMinute = 1000000000\n`)
  const explorer = serveOnFreePort(createExplorerApp(context, behind), 'explorer')
  try {
    const top = await head()
    await waitFor(() => behind.health().spoolHeadBlock === top, 'the second spool at the head')
    proxy.stop()
    const [hash] = await dev.send([{ from: alice.address, to: bob.address, value: 7n }])
    const at = await head()
    const answer = await fetch(`${explorer.url}/api/mini/${at}`)
    expect(answer.status).toBe(200)
    const mini = (await answer.json()) as { source: string; txCount: number; receipts: Array<{ transactionHash: string; success: boolean }> }
    expect(mini).toMatchObject({ source: 'node', txCount: 1 })
    expect(mini.receipts).toEqual([expect.objectContaining({ transactionHash: hash, success: true })])
  } finally {
    await explorer.stop()
    await behind.stop()
    proxy.stop()
  }
})
