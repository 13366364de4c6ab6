import { afterAll, expect, test } from 'bun:test'
import type { ServerWebSocket } from 'bun'
import { quantity } from '../eth/quantity.ts'
import { followMiniBlocks } from './miniBlocks.ts'
import { createRpc } from './rpc.ts'

// The follower against a node that takes its chain back and makes the same blocks again, as a
// reverted dev chain does (stack reset: anvil's clock goes back with the snapshot, and its empty
// blocks come out again with the same times and hashes). The node here is scripted, so that the
// hashes repeat exactly; tests/arcade/node.test.ts follows a real anvil.

type Block = { number: number; hash: string }
const hashOf = (number: number) => `0x${number.toString(16).padStart(64, '0')}`
let chain: Block[] = Array.from({ length: 6 }, (_, number) => ({ number, hash: hashOf(number) }))
const sockets = new Set<ServerWebSocket<unknown>>()
const rpcBlock = (block: Block) => ({ number: `0x${block.number.toString(16)}`, hash: block.hash, parentHash: hashOf(block.number - 1), timestamp: `0x${(1000 + block.number).toString(16)}`, transactions: [] })

function answer(call: { id: number; method: string; params: unknown[] }) {
  const result = (() => {
    switch (call.method) {
      case 'eth_getBlockByNumber': {
        const tag = call.params[0] as string
        const block = tag === 'latest' ? chain.at(-1) : chain.find((candidate) => candidate.number === quantity(tag))
        return block ? rpcBlock(block) : null
      }
      case 'eth_getBlockTransactionCountByHash':
        return chain.some((block) => block.hash === call.params[0]) ? '0x0' : null
      case 'eth_getLogs':
        return []
      default:
        return null
    }
  })()
  return { jsonrpc: '2.0', id: call.id, result }
}

const node = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: async (request, server) => {
    if (server.upgrade(request)) return undefined
    const body = (await request.json()) as Parameters<typeof answer>[0] | Array<Parameters<typeof answer>[0]>
    return Response.json(Array.isArray(body) ? body.map(answer) : answer(body))
  },
  websocket: {
    open: (ws) => void sockets.add(ws),
    close: (ws) => void sockets.delete(ws),
    message: (ws, message) => {
      const call = JSON.parse(String(message)) as { id: number; method: string }
      if (call.method === 'eth_subscribe') ws.send(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: '0x1' }))
    },
  },
})
afterAll(() => node.stop(true))

/** The node makes `block` (again) and announces it. */
function announce(block: Block) {
  chain = [...chain.filter((candidate) => candidate.number < block.number), block]
  const head = rpcBlock(block)
  for (const ws of sockets) ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: '0x1', result: head } }))
}

const until = async (check: () => boolean, what: string) => {
  for (let tries = 0; tries < 200 && !check(); tries++) await Bun.sleep(10)
  if (!check()) throw new Error(`never: ${what}`)
}

test('a chain taken back that makes the same blocks again: each announced head is applied, below the last', async () => {
  const applied: number[] = []
  const follower = followMiniBlocks({
    wsUrl: `ws://127.0.0.1:${node.port}`,
    rpc: createRpc(`http://127.0.0.1:${node.port}`),
    addresses: [],
    catchUpBlocks: 5,
    onMiniBlock: (miniBlock) => applied.push(miniBlock.number),
  })
  try {
    // The head read at connecting (5), after the five before it.
    await until(() => applied.length === 6, 'blocks 0 to 5')
    expect(applied).toEqual([0, 1, 2, 3, 4, 5])
    // Back to block 1, then blocks 2 and 3 made again: the very blocks applied before.
    applied.length = 0
    announce({ number: 2, hash: hashOf(2) })
    await until(() => applied.length === 1, 'block 2 made again')
    announce({ number: 3, hash: hashOf(3) })
    await until(() => applied.length === 2, 'block 3 made again')
    expect(applied).toEqual([2, 3])
    expect(follower.head()?.number).toBe(3)
    // The same head announced twice is applied once; the chain goes on as usual.
    announce({ number: 3, hash: hashOf(3) })
    announce({ number: 4, hash: hashOf(4) })
    await until(() => applied.length === 3, 'block 4')
    expect(applied).toEqual([2, 3, 4])
  } finally {
    follower.stop()
  }
})
