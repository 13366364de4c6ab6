import type { Address } from 'viem'
import type { Delivery } from './delivery.ts'
import { frames } from './frames.ts'
import type { Member } from './member.ts'
import type { EventPayload } from './protocol.ts'

/** How many of its last events a room keeps for the `hello` of a socket that joins. */
export const RECENT_EVENTS = 16

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
