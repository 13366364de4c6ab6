import type { Hex } from 'viem'
import { Backoff } from '../time/backoff.ts'
import { quantity } from '../eth/quantity.ts'
import { openRpcSocket, type RpcSocket } from './rpcSocket.ts'

export type Head = { number: number; hash: Hex; parentHash: Hex; timestamp: number }

export type NewHeadsOptions = {
  onHead: (head: Head) => void
  /** Called when the socket opens (true) or drops (false). */
  onState?: (connected: boolean) => void
  minDelayMs?: number
  maxDelayMs?: number
}

/** A subscribe call refused or cut off: the socket's close decides what follows. */
const ignore = () => {}

export type NewHeadsSubscription = {
  connected: () => boolean
  close: () => void
}

/**
 * Follows the node's new heads over its WebSocket (`eth_subscribe newHeads`). A socket that
 * drops or never opens is retried with exponential backoff, from minDelayMs up to maxDelayMs,
 * until close() is called.
 */
export function subscribeNewHeads(wsUrl: string, options: NewHeadsOptions): NewHeadsSubscription {
  const { onHead, onState = () => {}, minDelayMs = 250, maxDelayMs = 10_000 } = options
  let socket: RpcSocket | null = null
  let open = false
  let closed = false
  const backoff = new Backoff(minDelayMs, maxDelayMs)
  let timer: ReturnType<typeof setTimeout> | null = null

  const connect = () => {
    if (closed) return
    const ws: RpcSocket = openRpcSocket(wsUrl, {
      onOpen: () => void ws.call('eth_subscribe', ['newHeads']).then(subscribed, ignore),
      onNotification: (method, params) => {
        const head = method === 'eth_subscription' ? (params as { result?: Record<string, Hex> } | undefined)?.result : undefined
        if (head?.number && head.hash) {
          onHead({
            number: quantity(head.number),
            hash: head.hash,
            parentHash: head.parentHash as Hex,
            timestamp: quantity(head.timestamp),
          })
        }
      },
      onClose: () => dropped(),
    })
    socket = ws
    const subscribed = (id: unknown) => {
      if (socket === ws && typeof id === 'string') {
        open = true
        backoff.reset()
        onState(true)
      }
    }
    const dropped = () => {
      if (socket !== ws) return
      socket = null
      if (open) onState(false)
      open = false
      if (closed) return
      timer = setTimeout(connect, backoff.fail())
    }
  }
  connect()

  return {
    connected: () => open,
    close: () => {
      closed = true
      if (timer) clearTimeout(timer)
      socket?.close()
      socket = null
      open = false
    },
  }
}
