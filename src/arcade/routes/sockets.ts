import { Elysia } from 'elysia'
import type { conventions } from '../../http/conventions.ts'
import type { SocketLike } from '../room.ts'
import type { ArcadeSockets } from '../sockets.ts'

type Client = { client: string }

/**
 * The rooms at /ws/<room>, on Bun's WebSockets; what happens on each step is ArcadeSockets'.
 * `shared` is the conventions plugin the app already uses: used again here it is deduplicated
 * by Elysia, and it gives the handlers their `client`.
 */
export function socketRoutes(shared: ReturnType<typeof conventions>, sockets: ArcadeSockets) {
  return (
    new Elysia()
      .use(shared)
      // A plain GET of a room is no upgrade: the same check answers it (404 unknown room, else 426).
      .get('/ws/:room', ({ request, params, client }) => sockets.upgrade(request, params.room, client))
      .ws('/ws/:room', {
        // `client` comes from the conventions plugin's derive, which Elysia's ws types do not carry.
        upgrade: (context) => sockets.upgrade(context.request, context.params.room!, (context as unknown as Client).client),
        // Elysia's copy of the ServerWebSocket type lacks getBufferedAmount; Bun's socket has it.
        open: (ws) => sockets.open(ws.data, ws.raw as unknown as SocketLike, ws.data.request, ws.data.params.room!, (ws.data as unknown as Client).client),
        message: (ws, message) => sockets.message(ws.data, message),
        close: (ws, code, reason) => sockets.close(ws.data, code, reason),
      })
  )
}
