import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startNode, type RunningNode } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { startArcade, type RunningArcade } from './helpers/arcade.ts'
import { TestSocket } from './helpers/socketClient.ts'
import { tcpProxy } from './helpers/tcpProxy.ts'

// The node socket: new heads over the node's WebSocket, reconnecting with backoff, catching up
// on what was missed while it was down, and readiness that follows it (docs/arcade.md).

const ready = async (arcade: RunningArcade) => {
  const response = await fetch(`${arcade.service.url}/api/ready`)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('after the node socket drops', () => {
  let anvil: RunningNode
  let proxy: Awaited<ReturnType<typeof tcpProxy>>
  let running: RunningArcade
  let socket: TestSocket

  beforeAll(async () => {
    anvil = await startNode()
    proxy = await tcpProxy(anvil.port)
    running = await startArcade({ rpcUrl: anvil.rpcUrl, wsUrl: `ws://127.0.0.1:${proxy.port}` }, 'catchUpBlocks = 3\n')
    socket = await TestSocket.open(running.ws('dice'))
  })
  afterAll(async () => {
    await socket?.close()
    await running?.stop()
    await proxy?.close()
    await anvil?.stop()
  })

  const drop = async () => {
    proxy.cut()
    await waitFor(() => !running.arcade.nodeConnected(), 'the node socket to drop', 3000)
    expect((await ready(running)).body).toEqual({ error: 'not ready: the node socket is down' })
  }
  const reconnect = async () => {
    proxy.restore()
    await waitFor(() => running.arcade.nodeConnected(), 'the node socket to reconnect', 5000)
  }
  const headsFrom = (first: number) => socket.ofType('head').map((frame) => frame.number).filter((number) => number >= first)

  test('it reconnects and applies the mini-blocks it missed, in order, before the new head', async () => {
    const before = await anvil.mine()
    await socket.next((frame) => frame.type === 'head' && frame.number === before)
    await drop()
    const missed = await anvil.mine(2)
    await reconnect()
    // On reconnecting the node's head is read at once and the missed mini-blocks fetched.
    await socket.next((frame) => frame.type === 'head' && frame.number === missed)
    const head = await anvil.mine()
    await socket.next((frame) => frame.type === 'head' && frame.number === head)
    expect(headsFrom(before)).toEqual([before, before + 1, before + 2, before + 3])
    expect((await ready(running)).status).toBe(200)
  })

  test('a gap longer than catchUpBlocks skips the oldest and says how many', async () => {
    const before = await anvil.head()
    await drop()
    const missed = await anvil.mine(6)
    await reconnect()
    await socket.next((frame) => frame.type === 'head' && frame.number === missed)
    const head = await anvil.mine()
    await socket.next((frame) => frame.type === 'head' && frame.number === head)
    // catchUpBlocks = 3: of the five missed before the node's head, the two oldest are skipped.
    expect(headsFrom(before + 1)).toEqual([before + 3, before + 4, before + 5, before + 6, head])
    const stats = (await (await fetch(`${running.service.url}/api/stats`)).json()) as Record<string, any>
    expect(stats.miniBlocks.skipped).toBe(2)
    expect(running.lines).toContainEqual(expect.objectContaining({ msg: 'mini-blocks missed while the node socket was down were skipped', from: before + 1, to: before + 2 }))
  })
})

describe('readiness', () => {
  test('503 when anvil is stopped, 200 again once it is back', async () => {
    let anvil = await startNode({ blockTime: 1 })
    const running = await startArcade(anvil)
    try {
      await waitFor(async () => (await ready(running)).status === 200, 'ready', 5000)
      expect((await ready(running)).body).toMatchObject({ ready: true, head: expect.any(Number) })
      const port = anvil.port
      await anvil.stop()
      await waitFor(async () => (await ready(running)).status === 503, 'not ready', 3000)
      expect((await ready(running)).body).toEqual({ error: 'not ready: the node socket is down' })
      // The same port, a node started afresh: its chain starts again at block 0.
      anvil = await startNode({ port, blockTime: 1 })
      await waitFor(async () => (await ready(running)).status === 200, 'ready again', 10_000)
      expect(running.lines).toContainEqual(expect.objectContaining({ msg: 'node socket down; reconnecting' }))
    } finally {
      await running.stop()
      await anvil.stop()
    }
  }, 30_000)

  test('a node started afresh with no new block is followed at once: its head is read on reconnecting', async () => {
    let anvil = await startNode()
    const running = await startArcade(anvil)
    try {
      const before = await anvil.mine(3)
      await waitFor(() => running.arcade.relay.head?.number === before, 'the third block', 3000)
      const genesis = Number((await anvil.rpc.call<{ timestamp: string }>('eth_getBlockByNumber', ['0x0', false])).timestamp)
      const port = anvil.port
      await anvil.stop()
      await waitFor(() => !running.arcade.nodeConnected(), 'the node socket to drop', 3000)
      // A genesis block made in the same second as the first node's is the same block.
      await waitFor(() => Date.now() >= (genesis + 1) * 1000, 'a second after the first genesis block', 3000)
      anvil = await startNode({ port })
      // No block is mined: the genesis block, below the last one applied, is the new head.
      await waitFor(() => running.arcade.relay.head?.number === 0, 'the new chain’s genesis head', 5000)
      await waitFor(async () => (await ready(running)).status === 200, 'ready', 3000)
    } finally {
      await running.stop()
      await anvil.stop()
    }
  })

  test('a chain taken back to a snapshot (stack reset) is followed: each head made after the revert is applied, below the last', async () => {
    const anvil = await startNode()
    const running = await startArcade(anvil)
    try {
      const start = await anvil.mine()
      const snapshot = await anvil.rpc.call<string>('evm_snapshot')
      await anvil.mine(5)
      await waitFor(() => running.arcade.relay.head?.number === start + 5, 'the fifth block after the snapshot', 3000)
      expect(await anvil.rpc.call('evm_revert', [snapshot])).toBe(true)
      const applied: number[] = []
      running.arcade.relay.onApplied((head) => applied.push(head.number))
      await anvil.mine(3)
      await waitFor(() => running.arcade.relay.head?.number === start + 3, 'the third block after the revert', 3000)
      expect(applied).toEqual([start + 1, start + 2, start + 3])
      await waitFor(async () => (await ready(running)).status === 200, 'ready', 3000)
    } finally {
      await running.stop()
      await anvil.stop()
    }
  })

  test('503 when the last mini-block was applied longer ago than the limit', async () => {
    const anvil = await startNode()
    // The limit is five seconds by default; a shorter one keeps the test short (anvil's block
    // timestamps are whole seconds, so a block is up to a second old when it is made).
    const running = await startArcade(anvil, 'readyMaxAgeSeconds = 1.5\n')
    try {
      await anvil.mine()
      await waitFor(async () => (await ready(running)).status === 200, 'ready', 3000)
      const stale = await waitFor(async () => {
        const answer = await ready(running)
        return answer.status === 503 ? answer : null
      }, 'the last mini-block to grow older than the limit', 4000)
      expect(String(stale.body.error)).toMatch(/^not ready: the last mini-block is \d+ ms old \(limit 1500 ms\)$/)
      await anvil.mine()
      await waitFor(async () => (await ready(running)).status === 200, 'ready again', 3000)
    } finally {
      await running.stop()
      await anvil.stop()
    }
  })
})
