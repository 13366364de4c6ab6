import type { EjectionCause } from './protocol.ts'
import type { TokenBucket } from './tokenBucket.ts'
import type { Ticket } from './admission.ts'

/** What the arcade uses of Bun's ServerWebSocket, so rooms can be tested without a server. */
export type SocketLike = {
  readonly readyState: number
  /** Bun: bytes sent, -1 when queued behind backpressure, 0 when dropped. */
  send(data: string): number
  close(code?: number, reason?: string): void
  getBufferedAmount(): number
}

export const OPEN = 1

/** One open socket in a room. */
export class Member {
  /** Event names this socket receives; every event of the room to begin with. */
  readonly subscriptions: Set<string>
  /** Set once the arcade has closed the socket, so nothing more is sent to it. */
  ejected: EjectionCause | null = null

  constructor(
    readonly socket: SocketLike,
    readonly room: string,
    readonly address: string,
    readonly ticket: Ticket,
    readonly bucket: TokenBucket,
    events: readonly string[],
  ) {
    this.subscriptions = new Set(events)
  }
}
