import type { Elysia } from 'elysia'

/** A service that could not start; the message is one line meant for the operator. */
export class StartError extends Error {
  override name = 'StartError'
}

export type Listening = {
  service: string
  url: string
  port: number
  /** Stops accepting connections and resolves once in-flight requests are answered. */
  stop: () => Promise<void>
}

/**
 * Opens the service's port. A port already taken is a StartError naming the service and the
 * port; Bun's default of sharing a port between processes is turned off so that a second stack
 * cannot silently split the traffic with the first.
 */
export function listen(app: Elysia<any, any, any, any, any, any, any>, service: string, host: string, port: number): Listening {
  try {
    app.listen({ hostname: host, port, reusePort: false, development: false, idleTimeout: 30 })
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'EADDRINUSE') throw new StartError(`${service}: port ${port} on ${host} is already in use`)
    if (code === 'EADDRNOTAVAIL') throw new StartError(`${service}: cannot listen on ${host}: no such local address`)
    throw new StartError(`${service}: cannot listen on ${host}:${port}: ${(error as Error).message}`)
  }
  const server = app.server!
  let stopped = false
  const hostForUrl = host.includes(':') ? `[${host}]` : host
  return {
    service,
    url: `http://${hostForUrl}:${server.port}`,
    port: server.port!,
    stop: async () => {
      if (stopped) return
      stopped = true
      await app.stop(false)
    },
  }
}
