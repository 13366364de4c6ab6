import { Elysia } from 'elysia'
import type { ServiceContext } from '../context.ts'
import { conventions } from '../http/conventions.ts'
import { ServiceMetrics } from '../http/metrics.ts'
import { createArcade, type Arcade } from './arcade.ts'
import { registerArcadeMetrics } from './metrics.ts'
import { snapshotRoutes } from './routes/snapshot.ts'
import { socketRoutes } from './routes/sockets.ts'
import { ArcadeSockets } from './sockets.ts'

export function createArcadeApp(context: ServiceContext) {
  return arcadeApp(createArcade(context), context)
}

/**
 * The arcade service: the HTTP snapshot under /api and the rooms at /ws/<room>, on Bun's
 * WebSockets. The node socket opens when the service starts listening and closes when it stops.
 */
export function arcadeApp(arcade: Arcade, { config, log, sharedMetrics }: Pick<ServiceContext, 'config' | 'log' | 'sharedMetrics'>) {
  const { host, corsOrigins, trustedProxyHops } = config.arcade
  const { limits } = arcade.settings
  const metrics = new ServiceMetrics('arcade', sharedMetrics)
  registerArcadeMetrics(metrics, arcade)
  const shared = conventions({
    service: 'arcade',
    log,
    host,
    cors: { origins: corsOrigins, methods: ['GET', 'OPTIONS'], headers: 'Content-Type' },
    trustedProxyHops,
    readOnly: true,
    metrics,
  })
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
    .use(shared.plugin)
    .onStart(() => arcade.start())
    .onStop(() => arcade.stop())
    .group('/api', (api) => api.use(snapshotRoutes(arcade)))
    .use(socketRoutes(shared, new ArcadeSockets(arcade)))

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
