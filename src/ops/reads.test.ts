import { expect, test } from 'bun:test'
import { startAnvil } from '../chain/anvil.ts'
import { createRpc } from '../chain/rpc.ts'
import { getJson, nodeHead, okBody } from './reads.ts'

test('a JSON answer with its status, a page with a null body; only a success gives its body', async () => {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) => (new URL(request.url).pathname === '/page' ? new Response('<html>') : Response.json({ error: 'not found' }, { status: 404 })),
  })
  try {
    const base = `http://127.0.0.1:${server.port}`
    expect(await getJson(`${base}/missing`)).toEqual({ status: 404, body: { error: 'not found' }, text: '{"error":"not found"}' })
    expect(await getJson(`${base}/page`)).toEqual({ status: 200, body: null, text: '<html>' })
    expect(await okBody(`${base}/missing`)).toBeNull()
  } finally {
    server.stop(true)
  }
  expect(await okBody(`http://127.0.0.1:${server.port}/gone`)).toBeNull()
  await expect(getJson(`http://127.0.0.1:${server.port}/gone`)).rejects.toThrow()
})

test("the node's head as a number, null once the node is gone", async () => {
  const anvil = await startAnvil({ port: 0 })
  const rpc = createRpc(anvil.rpcUrl, { timeoutMs: 1000 })
  try {
    await rpc.call('evm_mine')
    expect(await nodeHead(rpc)).toBe(1)
  } finally {
    await anvil.stop()
  }
  expect(await nodeHead(rpc)).toBeNull()
})
