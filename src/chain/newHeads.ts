import type { Hex } from 'viem'
import { Backoff } from '../time/backoff.ts'

export type Head = { number: number; hash: Hex; parentHash: Hex; timestamp: number }

export type NewHeadsOptions = {
  onHead: (head: Head) => void
  /** Called when the socket opens (true) or drops (false). */
  onState?: (connected: boolean) => void
  minDelayMs?: number
  maxDelayMs?: number
}

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
  let socket: WebSocket | null = null
  let open = false
  let closed = false
  const backoff = new Backoff(minDelayMs, maxDelayMs)
  let timer: ReturnType<typeof setTimeout> | null = null

  const connect = () => {
    if (closed) return
    const ws = new WebSocket(wsUrl)
    socket = ws
    ws.onopen = () => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    }
    ws.onmessage = (event) => {
      let message: { id?: number; result?: unknown; method?: string; params?: { result?: Record<string, Hex> } }
      try {
        message = JSON.parse(String(event.data))
      } catch {
        return
      }
      if (message.id === 1 && typeof message.result === 'string') {
        open = true
        backoff.reset()
        onState(true)
        return
      }
      const head = message.method === 'eth_subscription' ? message.params?.result : undefined
      if (head?.number && head.hash) {
        onHead({
          number: Number.parseInt(head.number, 16),
          hash: head.hash,
          parentHash: head.parentHash as Hex,
          timestamp: Number.parseInt(head.timestamp ?? '0x0', 16),
        })
      }
    }
    ws.onclose = () => {
      if (socket !== ws) return
      socket = null
      if (open) onState(false)
      open = false
      if (closed) return
      timer = setTimeout(connect, backoff.fail())
    }
    ws.onerror = () => {
      // onclose follows and schedules the retry.
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
