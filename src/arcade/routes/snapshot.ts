import { Elysia } from 'elysia'
import { UnavailableError } from '../../errors.ts'
import { health } from '../../http/health.ts'
import type { Arcade } from '../arcade.ts'

/** The HTTP snapshot beside the rooms (docs/arcade.md), mounted under /api. */
export function snapshotRoutes(arcade: Arcade) {
  return (
    new Elysia()
      .get('/health', () => health('arcade'))
      // 200 with the head when ready, 503 with the reason otherwise (docs/arcade.md).
      .get('/ready', () => {
        const state = arcade.readiness()
        if (!state.ready) throw new UnavailableError(`not ready: ${state.reason}`)
        return state
      })
      // Sockets, the head, the node socket, frames in and out, ejections and refusals.
      .get('/stats', () => {
        const { stats, relay, rooms } = arcade
        const byRoom = Object.fromEntries([...rooms.values()].map((room) => [room.name, room.size]))
        return {
          sockets: { total: Object.values(byRoom).reduce((sum, count) => sum + count, 0), byRoom },
          head: relay.head,
          node: { connected: arcade.nodeConnected(), appliedMsAgo: relay.appliedAt === null ? null : Date.now() - relay.appliedAt },
          miniBlocks: { applied: stats.miniBlocksApplied, skipped: stats.miniBlocksSkipped },
          frames: { in: stats.framesIn, out: stats.framesOut },
          ejections: { ...stats.ejections },
          refusals: { ...stats.refusals },
        }
      })
      // One entry per room with its sockets, what it relays and its last event.
      .get('/rooms', () => ({
        rooms: [...arcade.rooms.values()].map((room) => ({
          name: room.name,
          sockets: room.size,
          events: room.events,
          contracts: room.contracts,
          lastEvent: room.lastEvent,
        })),
      }))
  )
}
