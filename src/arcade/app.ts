import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { health } from '../http/health.ts'
import { createArcade, type Arcade } from './arcade.ts'
import { readyAnswer, roomsAnswer, statsAnswer } from './routes.ts'
import type { SocketLike } from './member.ts'
import { ArcadeSockets } from './sockets.ts'

type Client = { client: string }

export function createArcadeApp(context: ServiceContext) {
  return arcadeApp(createArcade(context), context)
}

/**
 * The arcade service: the HTTP snapshot under /api and the rooms at /ws/<room>, on Bun's
 * WebSockets. The node socket opens when the service starts listening and closes when it stops.
 */
export function arcadeApp(arcade: Arcade, { config, log }: Pick<ServiceContext, 'config' | 'log'>) {
  const { host, corsOrigins, trustedProxyHops } = config.arcade
  const { limits } = arcade.settings
  const sockets = new ArcadeSockets(arcade)
  const app = new Elysia({
    nativeStaticResponse: false,
    websocket: {
      // Bun closes a socket that sends a larger frame with 1009, before any handler sees it.
      maxPayloadLength: limits.maxFrameBytes,
      // Set explicitly (Bun's pages disagree on the default). The arcade cuts a socket at this
      // limit itself (delivery.ts); Bun's own drop past it is a second guard, never a close.
      backpressureLimit: limits.maxBacklogBytes,
      closeOnBackpressureLimit: false,
      perMessageDeflate: false,
    },
  })
    .use(
      conventions({
        service: 'arcade',
        log,
        host,
        cors: { origins: corsOrigins, methods: ['GET', 'OPTIONS'], headers: 'Content-Type' },
        trustedProxyHops,
        readOnly: true,
      }),
    )
    .onStart(() => arcade.start())
    .onStop(() => arcade.stop())
    .group('/api', (api) =>
      api
        .get('/health', () => health('arcade'))
        .get('/ready', () => readyAnswer(arcade))
        .get('/stats', () => statsAnswer(arcade))
        .get('/rooms', () => roomsAnswer(arcade)),
    )
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

  // Bun's server.stop waits for every open WebSocket, and room sockets never end by themselves:
  // close them first (1001, going away) so that stopping ends once the clients answer.
  const stop = app.stop.bind(app)
  app.stop = (closeActiveConnections?: boolean) => {
    arcade.stop()
    arcade.closeSockets(1001, 'the arcade is stopping')
    return stop(closeActiveConnections)
  }
  return app
}
