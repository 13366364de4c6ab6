import { NodeUnreachableError } from '../errors.ts'
import { readAnswer, rpcMessage, type RpcAnswer } from './rpc.ts'

export type RpcSocketHandlers = {
  /** The socket is open: calls may go. */
  onOpen: () => void
  /** A message the node sent unasked (`eth_subscription`). */
  onNotification: (method: string, params: unknown) => void
  /** The socket closed, or never opened; called once. */
  onClose: () => void
}

export type RpcSocket = {
  /** A call's result; a JSON-RPC error is the RpcError the HTTP client throws, a closed socket a NodeUnreachableError. */
  call: <T>(method: string, params?: unknown[]) => Promise<T>
  close: () => void
}

/**
 * JSON-RPC over the node's WebSocket, with the messages and answers of the HTTP client. It does
 * not reconnect: whoever opened it hears of the close once and decides when to open another.
 */
export function openRpcSocket(wsUrl: string, { onOpen, onNotification, onClose }: RpcSocketHandlers): RpcSocket {
  const ws = new WebSocket(wsUrl)
  const waiting = new Map<number, { method: string; resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let nextId = 1

  ws.onopen = () => onOpen()
  ws.onmessage = (event) => {
    let message: RpcAnswer & { method?: string; params?: unknown }
    try {
      message = JSON.parse(String(event.data))
    } catch {
      return
    }
    if (typeof message.method === 'string') return onNotification(message.method, message.params)
    const call = typeof message.id === 'number' ? waiting.get(message.id) : undefined
    if (!call) return
    waiting.delete(message.id as number)
    const result = readAnswer(call.method, message)
    if (result.ok) call.resolve(result.value)
    else call.reject(result.error)
  }
  ws.onclose = () => {
    for (const call of waiting.values()) call.reject(new NodeUnreachableError(`the socket to ${wsUrl} closed before ${call.method} was answered`))
    waiting.clear()
    onClose()
  }
  ws.onerror = () => {
    // onclose follows.
  }

  return {
    call: <T>(method: string, params: unknown[] = []) =>
      new Promise<T>((resolve, reject) => {
        const id = nextId++
        waiting.set(id, { method, resolve: resolve as (value: unknown) => void, reject })
        try {
          ws.send(JSON.stringify(rpcMessage(id, { method, params })))
        } catch (error) {
          waiting.delete(id)
          reject(new NodeUnreachableError(`the socket to ${wsUrl} cannot send: ${(error as Error).message}`, { cause: error }))
        }
      }),
    close: () => ws.close(),
  }
}
