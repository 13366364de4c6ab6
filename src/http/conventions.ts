import { Elysia } from 'elysia'
import type { Server } from 'bun'
import type { Logger } from '../log.ts'
import { clientAddress } from './clientAddress.ts'
import { isAllowedOrigin, type CorsPolicy } from './cors.ts'
import { NodeUnreachableError, StackError } from '../errors.ts'
import { ALWAYS_HEADERS, errorBody, JSON_TYPE, NODE_UNREACHABLE_MESSAGE, statusOf } from './errors.ts'
import { requestContext, requestPath, type RequestInfo } from './requestContext.ts'

export type ConventionsOptions = {
  service: string
  log: Logger
  /** The host the service listens on (its own origins are always allowed). */
  host: string
  /** null: no CORS at all, no preflight handler, Origin ignored (the exchange index). */
  cors: CorsPolicy | null
  /** Proxies in front that append to X-Forwarded-For; 0 means the socket's peer is the client. */
  trustedProxyHops: number
  /** Every method but GET, HEAD and OPTIONS answers 405 (the explorer: "every POST answers 405"). */
  readOnly?: boolean
  /** A declared body larger than this answers 413 before routing. */
  maxBodyBytes?: number
  /** Requests one client may make per wall-clock minute; the next ones answer 429 (the explorer). */
  rateLimitPerMinute?: number
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Counts each client's requests in the current wall-clock minute (the window resets on the
 * minute, not a minute after the first request) and says whether one more is admitted. The
 * counts of the previous minute are dropped whole, so memory holds one minute of clients.
 */
export function minuteRateLimit(limit: number, now: () => number = Date.now) {
  let minute = -1
  let counts = new Map<string, number>()
  return (client: string): boolean => {
    const current = Math.floor(now() / 60_000)
    if (current !== minute) {
      minute = current
      counts = new Map()
    }
    const count = (counts.get(client) ?? 0) + 1
    counts.set(client, count)
    return count <= limit
  }
}

/**
 * The conventions every service shares (spec 03 "Shared conventions"): no-store and nosniff on
 * every answer, a JSON `{"error"}` body for every status from 400 up (unknown routes and thrown
 * errors included, never a page or a stack trace), CORS as an allowlist, the client's address from
 * the trusted end of X-Forwarded-For, and one log line per request.
 */
export function conventions(options: ConventionsOptions) {
  const { service, log, cors, trustedProxyHops } = options
  const requests = new WeakMap<Request, RequestInfo>()
  const admit = options.rateLimitPerMinute === undefined ? null : minuteRateLimit(options.rateLimitPerMinute)

  /** Read once per request, and never by `new URL`: a request without a Host has a bare path. */
  const infoOf = (request: Request): RequestInfo =>
    requests.get(request) ?? { service, method: request.method, path: requestPath(request.url), started: performance.now() }

  const logRequest = (request: Request, status: number) => {
    const { method, path, started } = infoOf(request)
    log.info({ service, method, path, status, ms: Math.round((performance.now() - started) * 100) / 100 }, 'request')
  }

  /** An answer made before routing; Elysia skips the after-response hook for these, so log here. */
  const early = (request: Request, status: number, headers: Record<string, string>, body: string | null) => {
    logRequest(request, status)
    const contentType: Record<string, string> = body === null ? {} : { 'content-type': JSON_TYPE }
    return new Response(body, { status, headers: { ...ALWAYS_HEADERS, ...contentType, ...headers } })
  }

  const clientOf = (request: Request, server: Server<unknown> | null) =>
    clientAddress(request.headers.get('x-forwarded-for'), peerAddress(request, server), trustedProxyHops)

  return new Elysia({ name: 'conventions', seed: service })
    .onRequest(({ request, set, server }) => {
      const info = infoOf(request)
      requests.set(request, info)
      requestContext.enterWith(info)
      Object.assign(set.headers, ALWAYS_HEADERS)

      const corsHeaders: Record<string, string> = {}
      if (cors) {
        corsHeaders.vary = 'Origin'
        const origin = request.headers.get('origin')
        if (origin !== null) {
          if (!isAllowedOrigin(origin, cors, options.host, server?.port ?? 0)) {
            return early(request, 403, corsHeaders, errorBody('origin not allowed'))
          }
          corsHeaders['access-control-allow-origin'] = origin
        }
        // Specs 02 and 03: a preflight names the allowed methods and header, with an Origin or without.
        if (request.method === 'OPTIONS') {
          corsHeaders['access-control-allow-methods'] = cors.methods.join(', ')
          corsHeaders['access-control-allow-headers'] = cors.headers
          if (origin !== null) corsHeaders['access-control-max-age'] = '600'
          return early(request, 204, corsHeaders, null)
        }
        Object.assign(set.headers, corsHeaders)
      }

      // Spec 03 "Errors": 429 with no retry-after; the client is the trusted end of X-Forwarded-For.
      if (admit && !admit(clientOf(request, server))) {
        return early(request, 429, corsHeaders, errorBody(`rate limit exceeded: ${options.rateLimitPerMinute} requests a minute`))
      }
      if (options.readOnly && !SAFE_METHODS.has(request.method)) {
        return early(request, 405, { ...corsHeaders, allow: 'GET, OPTIONS' }, errorBody('method not allowed'))
      }
      const declared = Number(request.headers.get('content-length') ?? 0)
      if (options.maxBodyBytes !== undefined && declared > options.maxBodyBytes) {
        return early(request, 413, corsHeaders, errorBody(`payload too large (limit ${options.maxBodyBytes} bytes)`))
      }
    })
    .derive({ as: 'global' }, ({ request, server }) => ({ client: clientOf(request, server) }))
    .onError({ as: 'global' }, ({ code, error, set, request }) => {
      let status: number
      let message: string
      let extra: Record<string, unknown> = {}
      const mapped = statusOf(error)
      if (mapped !== null && error instanceof StackError) {
        status = mapped
        message = error instanceof NodeUnreachableError ? NODE_UNREACHABLE_MESSAGE : error.message
        extra = error.details
      } else if (code === 'NOT_FOUND') {
        ;[status, message] = [404, 'not found']
      } else if (code === 'VALIDATION') {
        ;[status, message] = [400, 'invalid request']
      } else if (code === 'PARSE') {
        ;[status, message] = [400, 'invalid json']
      } else {
        // The details stay in the log; the caller learns only that it failed.
        ;[status, message] = [500, 'internal error']
        const { method, path } = infoOf(request)
        log.error({ service, err: error, method, path }, 'unhandled error')
      }
      set.status = status
      set.headers['content-type'] = JSON_TYPE
      return errorBody(message, extra)
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, responseValue }) => {
      const status = responseValue instanceof Response ? responseValue.status : Number(set.status ?? 200)
      logRequest(request, status)
    })
}

/** The socket's peer, or null once the connection is gone (Bun may no longer know it). */
function peerAddress(request: Request, server: Server<unknown> | null): string | null {
  try {
    return server?.requestIP(request)?.address ?? null
  } catch {
    return null
  }
}
