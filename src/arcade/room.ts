import type { Address } from 'viem'
import type { Ticket } from './admission.ts'
import type { Delivery } from './delivery.ts'
import { frames, type EjectionCause, type EventPayload } from './frames.ts'
import type { TokenBucket } from './tokenBucket.ts'

/** How many of its last events a room keeps for the `hello` of a socket that joins. */
export const RECENT_EVENTS = 16

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

/** A game room: its sockets, the events it relays and the last ones it relayed. */
export class Room {
  readonly members = new Set<Member>()
  /** The room's last events, oldest first. */
  readonly recent: EventPayload[] = []

  constructor(
    readonly name: string,
    /** Names of the events the room's bound contracts declare. */
    readonly events: readonly string[],
    readonly contracts: ReadonlyArray<{ address: Address; abi: string }>,
    private readonly delivery: Delivery,
  ) {}

  get size(): number {
    return this.members.size
  }

  get lastEvent(): EventPayload | null {
    return this.recent.at(-1) ?? null
  }

  /** Adds a socket and tells the others the new count. */
  join(member: Member): void {
    this.members.add(member)
    this.presence(member)
  }

  /** Removes a socket and tells the others the new count. */
  leave(member: Member): void {
    if (this.members.delete(member)) this.presence(member)
  }

  /** Sends a frame to every socket in the room. */
  broadcast(frame: string, except?: Member): void {
    for (const member of this.members) if (member !== except) this.delivery.send(member, frame)
  }

  /** Sends an event to the sockets subscribed to its name, and keeps it among the room's last. */
  relayEvent(event: EventPayload): void {
    this.recent.push(event)
    if (this.recent.length > RECENT_EVENTS) this.recent.shift()
    let frame: string | null = null
    for (const member of this.members) {
      if (!member.subscriptions.has(event.name)) continue
      frame ??= frames.event(event)
      this.delivery.send(member, frame)
    }
  }

  private presence(changed: Member) {
    this.broadcast(frames.presence(this.name, this.members.size), changed)
  }
}
