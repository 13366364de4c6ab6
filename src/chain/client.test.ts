import { expect, test } from 'bun:test'
import { startAnvil } from './anvil.ts'
import { createChain, isNodeUnreachable } from './client.ts'

test('reads from a live node, and a node that is gone is told apart from a node error', async () => {
  const anvil = await startAnvil({ port: 0 })
  const chain = createChain({ rpcUrl: anvil.rpcUrl, wsUrl: anvil.wsUrl, chainId: 78270, timeoutMs: 1000 })
  try {
    expect(await chain.publicClient.getChainId()).toBe(78270)
    // A method no node has, so viem's method types rightly do not know it either.
    // @ts-expect-error the name is unknown on purpose
    const nodeError = await chain.publicClient.request({ method: 'eth_noSuchMethod' }).catch((error) => error)
    expect(isNodeUnreachable(nodeError)).toBe(false)
  } finally {
    await anvil.stop()
  }
  const gone = await chain.publicClient.getBlockNumber().catch((error) => error)
  expect(gone).toBeInstanceOf(Error)
  expect(isNodeUnreachable(gone)).toBe(true)
})

test('a node that does not answer in time is unreachable', async () => {
  const silent = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>(() => {}) })
  try {
    const chain = createChain({ rpcUrl: `http://127.0.0.1:${silent.port}`, wsUrl: 'ws://127.0.0.1:1', chainId: 78270, timeoutMs: 200 })
    const error = await chain.publicClient.getBlockNumber().catch((caught) => caught)
    expect(isNodeUnreachable(error)).toBe(true)
  } finally {
    silent.stop(true)
  }
})
