import type { Elysia } from 'elysia'
import { websocket } from 'elysia/ws'
import type { Server } from 'bun'
import { silentLogger, type Logger } from '../log.ts'
import { conventionsOf, type FetchHandler } from './conventions.ts'
import { errorResponse } from './errors.ts'
import { requestContext } from './requestContext.ts'
import { FatalError } from '../errors.ts'

/** A service that could not start; the message is one line meant for the operator. */
export class StartError extends FatalError {
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
 * Opens the service's port and serves the app through its conventions (conventions.ts), which
 * run once per request around the app's own fetch. A port already taken is a StartError naming
 * the service and the port; Bun's default of sharing a port between processes is turned off so
 * that a second stack cannot silently split the traffic with the first. Whatever escapes both
 * reaches Bun's `error` hook, which logs it and answers the JSON 500 of the conventions.
 *
 * This does what Elysia's own listen does (compile, WebSockets, the start and stop hooks) with
 * Bun.serve directly, since that one hands Bun the app's fetch and routes with nothing around them.
 */
export function listen(app: Elysia<any, any, any, any, any, any, any>, service: string, host: string, port: number, log: Logger = silentLogger): Listening {
  const error = (thrown: unknown) => {
    const request = requestContext.getStore()
    log.error({ service, err: thrown, method: request?.method, path: request?.path }, 'unhandled error')
    return errorResponse(500, 'internal error')
  }
  app.compile()
  const fetch = app.fetch as FetchHandler
  const conventions = conventionsOf(app)
  let server: Server<unknown>
  try {
    // Bun answers a declared body over maxRequestBodySize itself, with a bare 413 and no JSON; no
    // handler reads a body past its own limit (the conventions refuse a larger declared length
    // with the JSON 413 before routing), so every length Bun can represent reaches them.
    server = Bun.serve({
      hostname: host,
      port,
      reusePort: false,
      development: false,
      idleTimeout: 30,
      maxRequestBodySize: Number.MAX_SAFE_INTEGER,
      websocket: { ...app.config.websocket, ...websocket },
      fetch: conventions ? conventions.serve(fetch, app.routes) : fetch,
      error,
    } as Parameters<typeof Bun.serve>[0])
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code === 'EADDRINUSE') throw new StartError(`${service}: port ${port} on ${host} is already in use`)
    if (code === 'EADDRNOTAVAIL') throw new StartError(`${service}: cannot listen on ${host}: no such local address`)
    throw new StartError(`${service}: cannot listen on ${host}:${port}: ${(error as Error).message}`)
  }
  // Elysia upgrades WebSockets through the app's server.
  app.server = server
  for (const hook of app.event.start ?? []) hook.fn(app)
  let stopped = false
  const hostForUrl = host.includes(':') ? `[${host}]` : host
  return {
    service,
    url: `http://${hostForUrl}:${server.port}`,
    port: server.port!,
    stop: async () => {
      if (stopped) return
      stopped = true
      // Elysia's own stop: the server, then the app's stop hooks (and what an app adds to it).
      await app.stop(false)
    },
  }
}
