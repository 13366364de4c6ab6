import { Elysia } from 'elysia'
import type { Conventions } from '../../http/conventions.ts'
import type { SocketLike } from '../room.ts'
import type { ArcadeSockets } from '../sockets.ts'

/**
 * The rooms at /ws/<room>, on Bun's WebSockets; what happens on each step is ArcadeSockets'.
 * `shared` are the app's conventions, which know the client of each request (the upgrade's too).
 */
export function socketRoutes(shared: Conventions, sockets: ArcadeSockets) {
  return (
    new Elysia()
      // A plain GET of a room is no upgrade: the same check answers it (404 unknown room, else 426).
      .get('/ws/:room', ({ request, params }) => sockets.upgrade(request, params.room, shared.client(request)))
      .ws('/ws/:room', {
        upgrade: (context) => sockets.upgrade(context.request, context.params.room!, shared.client(context.request)),
        // Elysia's copy of the ServerWebSocket type lacks getBufferedAmount; Bun's socket has it.
        open: (ws) => sockets.open(ws.data, ws.raw as unknown as SocketLike, ws.data.request, ws.data.params.room!, shared.client(ws.data.request)),
        message: (ws, message) => sockets.message(ws.data, message),
        close: (ws, code, reason) => sockets.close(ws.data, code, reason),
      })
  )
}
