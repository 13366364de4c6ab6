import type { Address } from 'viem'
import type { Delivery } from './delivery.ts'
import { frames } from './frames.ts'
import type { Member } from './member.ts'
import type { EventPayload } from './protocol.ts'

/** A game room: its sockets, the events it relays and the last one it relayed. */
export class Room {
  readonly members = new Set<Member>()
  lastEvent: EventPayload | null = null

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

  /** Sends an event to the sockets subscribed to its name, and keeps it as the room's last. */
  relayEvent(event: EventPayload): void {
    this.lastEvent = event
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
