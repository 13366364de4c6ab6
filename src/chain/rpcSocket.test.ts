import { expect, test } from 'bun:test'
import { startAnvil } from './anvil.ts'
import { NodeUnreachableError } from '../errors.ts'
import { createRpc, RpcError } from './rpc.ts'
import { openRpcSocket, type RpcSocket } from './rpcSocket.ts'

test('over the socket: calls answered as over HTTP, notifications passed on, a close said once', async () => {
  const anvil = await startAnvil({ port: 0 })
  try {
    const notifications: Array<{ method: string; params: unknown }> = []
    let closes = 0
    const opened = Promise.withResolvers<void>()
    const socket: RpcSocket = openRpcSocket(anvil.wsUrl, {
      onOpen: () => opened.resolve(),
      onNotification: (method, params) => notifications.push({ method, params }),
      onClose: () => closes++,
    })
    await opened.promise
    expect(await socket.call<string>('eth_chainId')).toBe(await createRpc(anvil.rpcUrl).call<string>('eth_chainId'))
    // The node's refusal is the HTTP client's RpcError, code and method kept.
    const refused = await socket.call('eth_noSuchMethod').catch((error: RpcError) => error)
    expect(refused).toBeInstanceOf(RpcError)
    expect(refused).toMatchObject({ code: expect.any(Number), method: 'eth_noSuchMethod' })

    const subscription = await socket.call<string>('eth_subscribe', ['newHeads'])
    await createRpc(anvil.rpcUrl).call('evm_mine')
    for (let tries = 0; tries < 100 && notifications.length === 0; tries++) await Bun.sleep(10)
    expect(notifications[0]).toMatchObject({ method: 'eth_subscription', params: { subscription, result: { number: '0x1' } } })

    // A call still waiting when the socket goes is refused, not left hanging.
    const waiting = socket.call('eth_blockNumber').catch((error: Error) => error)
    socket.close()
    expect(await waiting).toBeInstanceOf(NodeUnreachableError)
    for (let tries = 0; tries < 100 && closes === 0; tries++) await Bun.sleep(10)
    expect(closes).toBe(1)
  } finally {
    await anvil.stop()
  }
})

test('a socket that never opens: onClose, and no onOpen', async () => {
  const closed = Promise.withResolvers<void>()
  let opened = false
  openRpcSocket('ws://127.0.0.1:9', { onOpen: () => (opened = true), onNotification: () => {}, onClose: () => closed.resolve() })
  await closed.promise
  expect(opened).toBe(false)
})
