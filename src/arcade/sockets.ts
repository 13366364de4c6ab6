import { LimitError, NotFoundError } from '../errors.ts'
import { HttpError } from '../http/errors.ts'
import type { Ticket } from './admission.ts'
import type { Arcade } from './arcade.ts'
import { frames } from './frames.ts'
import { InboundError, parseInbound, type Inbound } from './inbound.ts'
import { Member, type SocketLike } from './room.ts'
import { TokenBucket } from './tokenBucket.ts'

/** A place taken at the upgrade is given back if the socket has not opened by then. */
const OPEN_DEADLINE_MS = 10_000

/**
 * Bun closes a socket that sends a frame over maxPayloadLength itself (the client sees 1009); the
 * server-side close handler gets this reason, which is how it is counted.
 */
const BUN_TOO_BIG = /too big/i

/**
 * The socket side of the arcade, free of Elysia: the upgrade check, and what happens when a socket
 * opens, sends a frame and closes. Sockets are known by a key object that stays the same for the
 * life of the connection (Elysia's per-connection data).
 */
export class ArcadeSockets {
  private readonly pending = new WeakMap<Request, { ticket: Ticket; timer: ReturnType<typeof setTimeout> }>()
  private readonly members = new WeakMap<object, Member>()

  constructor(private readonly arcade: Arcade) {}

  /**
   * Decides an upgrade before the handshake: an unknown room is 404, a request that is not a
   * WebSocket upgrade is 426, a cap reached is 429. (A refused Origin is answered 403 earlier, by
   * the conventions plugin.) An accepted upgrade holds its place under the caps.
   */
  upgrade(request: Request, roomName: string, client: string): void {
    const { stats, admission } = this.arcade
    if (!this.arcade.rooms.has(roomName)) {
      stats.refusals.unknownRoom++
      throw new NotFoundError(`no room named ${JSON.stringify(roomName)}`)
    }
    const upgrade = request.headers.get('upgrade')?.toLowerCase()
    if (upgrade !== 'websocket' || !request.headers.get('sec-websocket-key')) {
      throw new HttpError(426, 'expected a WebSocket upgrade')
    }
    const ticket = admission.admit(client)
    if (ticket === 'tooManySockets') {
      stats.refusals.tooManySockets++
      throw new LimitError(`too many sockets: the arcade holds ${this.arcade.settings.limits.maxSockets}`)
    }
    if (ticket === 'tooManyFromAddress') {
      stats.refusals.tooManyFromAddress++
      throw new LimitError(`too many sockets from ${client}: at most ${this.arcade.settings.limits.maxSocketsPerAddress} per address`)
    }
    const timer = setTimeout(() => admission.release(ticket), OPEN_DEADLINE_MS)
    timer.unref?.()
    this.pending.set(request, { ticket, timer })
  }

  open(key: object, socket: SocketLike, request: Request, roomName: string, client: string): void {
    const { admission, rooms, settings, relay, delivery } = this.arcade
    const room = rooms.get(roomName)!
    let ticket: Ticket
    const pending = this.pending.get(request)
    if (pending) {
      clearTimeout(pending.timer)
      this.pending.delete(request)
      admission.reclaim(pending.ticket)
      ticket = pending.ticket
    } else {
      // Every socket holds a place; one that somehow opened without the upgrade check takes one now.
      ticket = { address: client, released: true }
      admission.reclaim(ticket)
    }
    const bucket = new TokenBucket(settings.limits.messagesPerSecond, settings.limits.messageBurst)
    const member = new Member(socket, roomName, client, ticket, bucket, room.events)
    this.members.set(key, member)
    delivery.send(member, frames.hello(roomName, relay.head, room.size + 1, room.events, room.recent))
    room.join(member)
  }

  message(key: object, message: unknown): void {
    const member = this.members.get(key)
    if (!member || member.ejected) return
    const { stats, delivery } = this.arcade
    stats.framesIn++
    if (!member.bucket.take()) {
      delivery.eject(member, 'rateLimited')
      return
    }
    let inbound: Inbound
    try {
      inbound = parseInbound(message)
    } catch (error) {
      if (!(error instanceof InboundError)) throw error
      delivery.send(member, frames.error(error.message))
      return
    }
    if (inbound.type === 'ping') {
      delivery.send(member, frames.pong(inbound.id))
      return
    }
    const room = this.arcade.rooms.get(member.room)!
    const unknown = inbound.events.filter((name) => !room.events.includes(name))
    if (unknown.length > 0) {
      const known = room.events.length > 0 ? room.events.join(', ') : 'none'
      delivery.send(member, frames.error(`no event named ${unknown.join(', ')} in room ${room.name} (its events: ${known})`))
      return
    }
    for (const name of inbound.events) {
      if (inbound.type === 'subscribe') member.subscriptions.add(name)
      else member.subscriptions.delete(name)
    }
    delivery.send(member, frames.subscribed(room.events.filter((name) => member.subscriptions.has(name))))
  }

  close(key: object, code: number, reason: string): void {
    const member = this.members.get(key)
    if (!member) return
    this.members.delete(key)
    if (!member.ejected && (code === 1009 || BUN_TOO_BIG.test(reason))) {
      member.ejected = 'frameTooLarge'
      this.arcade.stats.ejections.frameTooLarge++
    }
    this.arcade.admission.release(member.ticket)
    this.arcade.rooms.get(member.room)?.leave(member)
  }
}
