import type { ArcadeStats } from './arcade.ts'
import { CLOSE, type EjectionCause } from './frames.ts'
import { OPEN, type Member } from './room.ts'

/**
 * Sends frames without ever queueing a socket past the backlog limit. A socket whose buffered
 * bytes plus the frame would pass `maxBacklogBytes`, or whose frame Bun drops, is ejected (closed
 * with a code and reason) instead; the send loop never waits on it, so one slow client cannot
 * slow the others.
 */
export class Delivery {
  constructor(
    private readonly maxBacklogBytes: number,
    private readonly stats: ArcadeStats,
  ) {}

  send(member: Member, frame: string): boolean {
    if (member.ejected) return false
    const socket = member.socket
    // Closing already (the client left); its close handler will remove it.
    if (socket.readyState !== OPEN) return false
    // Frames are ASCII JSON in practice, so the string length is the byte count.
    if (socket.getBufferedAmount() + frame.length > this.maxBacklogBytes) {
      this.eject(member, 'backlog')
      return false
    }
    const status = socket.send(frame)
    if (status === 0) {
      this.eject(member, 'backlog')
      return false
    }
    this.stats.framesOut++
    return true
  }

  /** Closes the socket with the cause's code and reason and counts it; once per socket. */
  eject(member: Member, cause: EjectionCause): void {
    if (member.ejected) return
    member.ejected = cause
    this.stats.ejections[cause]++
    const { code, reason } = CLOSE[cause]
    member.socket.close(code, reason)
  }
}
