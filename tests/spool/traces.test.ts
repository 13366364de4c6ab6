import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createRpc } from '../../src/chain/rpc.ts'
import type { Manifest } from '../../src/devnet/deploy.ts'
import { fetchBlocks, type Capabilities } from '../../src/spool/fetchBlocks.ts'
import { packTrace, unpackTrace, type CallFrame } from '../../src/spool/traces.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { rpcProxy } from './helpers.ts'

let chain: DevChain
let manifest: Manifest
let swapBlock: number
const proxies: Array<{ stop: () => void }> = []

beforeAll(async () => {
  ;({ manifest } = chain = await startDevChain())
  // The first swap through the V3 router: router → pool → token transfer, and the pool's
  // callback into the router, which pulls the input token.
  const head = await chain.head()
  for (let number = 1; number <= head; number++) {
    const block = await chain.rpc.call<{ transactions: Array<{ to: string | null }> }>('eth_getBlockByNumber', [`0x${number.toString(16)}`, true])
    if (block.transactions[0]?.to?.toLowerCase() === manifest.contracts.SwapRouter.toLowerCase()) {
      swapBlock = number
      break
    }
  }
})
afterAll(async () => {
  for (const proxy of proxies) proxy.stop()
  await chain?.stop()
})

/** The part of a frame both trace sources agree on (gas accounting differs between them). */
const shape = (frame: CallFrame): unknown => ({
  type: frame.type,
  from: frame.from.toLowerCase(),
  to: frame.to?.toLowerCase() ?? null,
  input: frame.input,
  output: frame.output,
  error: frame.error,
  calls: frame.calls.map(shape),
})

async function traceOf(url: string, caps: Capabilities) {
  const [bundle] = await fetchBlocks(createRpc(url), [swapBlock], caps)
  return bundle!.traces
}

test('trace_block is folded into nested calls, the same tree the call tracer gives', async () => {
  const caps: Capabilities = { blockReceipts: null, traces: null }
  const parity = await traceOf(chain.rpcUrl, caps)
  expect(caps.traces).toBe('parity')
  const tree = parity![0]!
  expect(tree.to?.toLowerCase()).toBe(manifest.contracts.SwapRouter.toLowerCase())
  expect(tree.calls.length).toBeGreaterThan(0)
  const pool = tree.calls[0]!
  expect(pool.calls.length).toBeGreaterThanOrEqual(2) // the token paid out, the callback into the router
  expect(pool.calls.some((call) => call.calls.length > 0)).toBe(true) // the callback pulls the input token

  const geth = await traceOf(chain.rpcUrl, { blockReceipts: null, traces: 'calltracer' })
  expect(parity!.map(shape)).toEqual(geth!.map(shape))
})

test("every tree of a block comes back whole from the spool's packed form, from either source", async () => {
  const [bundle] = await fetchBlocks(createRpc(chain.rpcUrl), [swapBlock], { blockReceipts: null, traces: null })
  const geth = await traceOf(chain.rpcUrl, { blockReceipts: null, traces: 'calltracer' })
  for (const [index, tx] of bundle!.block.transactions.entries()) {
    const call = { from: tx.from, to: tx.to, value: tx.value, input: tx.input }
    for (const tree of [bundle!.traces![index]!, geth![index]!]) {
      const packed = packTrace(tree, call)
      expect(unpackTrace(packed, call)).toEqual(tree)
      expect(packed.length).toBeLessThan(JSON.stringify(tree).length)
    }
  }
})

test('a node without trace_block falls back to the call tracer', async () => {
  const proxy = rpcProxy(chain.rpcUrl, undefined, ['trace_block'])
  proxies.push(proxy)
  const caps: Capabilities = { blockReceipts: null, traces: null }
  const traces = await traceOf(proxy.url, caps)
  expect(caps.traces).toBe('calltracer')
  expect(traces![0]!.calls.length).toBeGreaterThan(0)
})

test('a node with neither gives blocks without traces, and says so', async () => {
  const proxy = rpcProxy(chain.rpcUrl, undefined, ['trace_block', 'debug_traceBlockByNumber'])
  proxies.push(proxy)
  const caps: Capabilities = { blockReceipts: null, traces: null }
  expect(await traceOf(proxy.url, caps)).toBeNull()
  expect(caps.traces).toBe(false)
})

test('a node without eth_getBlockReceipts: receipts one by one', async () => {
  const proxy = rpcProxy(chain.rpcUrl, undefined, ['eth_getBlockReceipts'])
  proxies.push(proxy)
  const caps: Capabilities = { blockReceipts: null, traces: null }
  const [bundle] = await fetchBlocks(createRpc(proxy.url), [swapBlock], caps)
  expect(caps.blockReceipts).toBe(false)
  expect(bundle!.receipts).toHaveLength(bundle!.block.transactions.length)
  expect(bundle!.receipts[0]!.logs.length).toBeGreaterThan(0)
})
