import { Elysia } from 'elysia'
import type { Server } from 'bun'
import { requestLogger, type Logger } from '../log.ts'
import { clientAddress } from './clientAddress.ts'
import { isAllowedOrigin, type CorsPolicy } from './cors.ts'
import { METRICS_PATH, UNMATCHED_ROUTE, type ServiceMetrics } from './metrics.ts'
import { NodeUnreachableError, StackError } from '../errors.ts'
import { ALWAYS_HEADERS, errorBody, JSON_TYPE, NODE_UNREACHABLE_MESSAGE, statusOf } from './errors.ts'
import { pathStart, requestContext, requestPath, type RequestInfo } from './requestContext.ts'
import { routeLabels, type DeclaredRoute } from './routeLabels.ts'

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
  /** GET is the only method: any other, HEAD and OPTIONS included, is the unknown route's JSON 404 (the exchange index). */
  getOnly?: boolean
  /**
   * An Origin not on the allowlist is refused 403 only where the service answers: a route of the
   * app for the request's method, `/metrics`, and a preflight (which answers on any path).
   * Anything else is the JSON 404 it is without an Origin (the faucet: what is neither its API
   * nor its page is 404, never 403).
   */
  originRefusedOnRoutesOnly?: boolean
  /** A declared body larger than this answers 413 before routing. */
  maxBodyBytes?: number
  /** Requests one client may make per wall-clock minute; the next ones answer 429 (the explorer). */
  rateLimitPerMinute?: number
  /** Which paths the minute counts (all when absent): the explorer counts its API, not its pages' files. */
  rateLimited?: (path: string) => boolean
  /** Counts every request by route pattern and status, and answers GET /metrics with the service's metrics. */
  metrics?: ServiceMetrics
  /**
   * Keys an answer refused before routing carries beside `error` on some paths: the Etherscan
   * listener gives its Sourcify routes' refusals (413, 429) Sourcify's own keys.
   */
  errorFields?: (path: string, status: number, message: string) => Record<string, unknown> | null
  /**
   * The answer to a path no route takes, in place of the JSON 404, when this gives one (the
   * explorer's 404 page for a browser's navigation); null keeps the JSON 404.
   */
  notFoundPage?: (request: Request, path: string) => Response | null
}

/** Bun's handler of a request; undefined once a WebSocket upgrade has taken the request. */
export type FetchHandler = (request: Request, server: Server<unknown>) => Response | undefined | Promise<Response | undefined>

/**
 * The conventions of one service. `plugin` goes into the service's Elysia app with `.use`: it
 * turns errors its handlers throw into JSON answers, and names these conventions to `listen`
 * (serve.ts), which serves the app through `serve`. A handler that needs the client's address
 * asks `client`.
 */
export type Conventions = {
  plugin: ReturnType<typeof conventionsPlugin>
  /** The client of a request being served: the trusted end of X-Forwarded-For, or the socket's peer. */
  client: (request: Request) => string
  /**
   * `fetch` (the app's own) with the conventions around it: the checks before routing, the
   * headers, the log line and the request's metrics after. `routes` are the routes the app
   * declares: the pattern of the one a path matches is the metrics' label.
   */
  serve: (fetch: FetchHandler, routes?: readonly DeclaredRoute[]) => FetchHandler
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

/** A request being served: what its log line says, the request as it came and its socket, its client once asked. */
type Served = RequestInfo & { request: Request; server: Server<unknown>; client: string | null }

/**
 * The conventions every service shares (docs/http.md): no-store and nosniff on
 * every answer, a JSON `{"error"}` body for every status from 400 up (unknown routes and thrown
 * errors included, never a page or a stack trace), CORS as an allowlist, the client's address from
 * the trusted end of X-Forwarded-For, and one log line per request.
 *
 * They run once per request around the app's own fetch, not as Elysia's per-request hooks: a
 * hook for the headers, one for the client's address and one for the log line cost a service
 * about half its requests per second, measured against a bare Bun.serve.
 */
export function conventions(options: ConventionsOptions): Conventions {
  const { service, log, cors, trustedProxyHops } = options
  const requests = new WeakMap<Request, Served>()
  const admit = options.rateLimitPerMinute === undefined ? null : minuteRateLimit(options.rateLimitPerMinute)
  const { readOnly, getOnly, maxBodyBytes: maxBody } = options

  // From the request as it came: Bun knows the peer of that one only, not of one routed anew.
  const clientOf = (served: Served): string =>
    (served.client ??= clientAddress(served.request.headers.get('x-forwarded-for'), peerAddress(served.request, served.server), trustedProxyHops))

  const requestLine = requestLogger(log)
  const metrics = options.metrics
  if (admit) metrics?.hasRateLimit()
  let routeOf: (path: string) => string | null = () => null
  const logRequest = ({ method, path, started }: Served, status: number) => {
    const ms = performance.now() - started
    requestLine({ service, method, path, status, ms: Math.round(ms * 100) / 100 })
    metrics?.request(path === METRICS_PATH ? METRICS_PATH : (routeOf(path) ?? UNMATCHED_ROUTE), method, status, ms / 1000)
  }

  /** An answer made before routing, with the JSON body of its status. */
  const early = (status: number, headers: Record<string, string>, body: string | null) => {
    const contentType: Record<string, string> = body === null ? {} : { 'content-type': JSON_TYPE }
    return new Response(body, { status, headers: { ...ALWAYS_HEADERS, ...contentType, ...headers } })
  }

  /** The JSON body of an answer refused before routing, with the keys the path's API adds. */
  const refusalBody = (path: string, status: number, message: string) => errorBody(message, options.errorFields?.(path, status, message) ?? {})

  const preflightMethods = cors?.methods.join(', ') ?? ''
  /**
   * The CORS headers of a preflight: those of every answer and what the service allows. The
   * 405 of a read-only service carries the same, so a browser reads why its write was refused.
   */
  const preflightHeaders = (corsHeaders: Record<string, string>, origin: string | null): Record<string, string> => {
    if (!cors) return corsHeaders
    const headers: Record<string, string> = { ...corsHeaders, 'access-control-allow-methods': preflightMethods, 'access-control-allow-headers': cors.headers }
    if (origin !== null) headers['access-control-max-age'] = '600'
    return headers
  }
  /** Whether the app has a route for this method and path (HEAD is its GET), /metrics included. */
  let isRoute: (method: string, path: string) => boolean = () => false

  /**
   * The checks before routing: the Origin (403 when it is not allowed, or the 404 off the
   * service's routes where it asks for that; 204 for a preflight), the client's minute (429),
   * the method (405, or 404 where GET is the only one) and the declared body (413). Gives the
   * answer that ends the request here, or null, and the CORS headers every answer of this
   * request carries.
   */
  const check = (request: Request, served: Served, corsHeaders: Record<string, string>): Response | null => {
    let origin: string | null = null
    if (cors) {
      corsHeaders.vary = 'Origin'
      origin = request.headers.get('origin')
      if (origin !== null) {
        if (!isAllowedOrigin(origin, cors, options.host, served.server.port ?? 0)) {
          if (options.originRefusedOnRoutesOnly && served.method !== 'OPTIONS' && !isRoute(served.method, served.path)) {
            return early(404, { vary: 'Origin' }, refusalBody(served.path, 404, 'not found'))
          }
          return early(403, { vary: 'Origin' }, refusalBody(served.path, 403, 'origin not allowed'))
        }
        corsHeaders['access-control-allow-origin'] = origin
      }
      // Specs 02 and 03: a preflight names the allowed methods and header, with an Origin or without.
      if (served.method === 'OPTIONS') return early(204, preflightHeaders(corsHeaders, origin), null)
    }
    // 429 with no retry-after; the client is the trusted end of X-Forwarded-For.
    if (admit && (options.rateLimited?.(served.path) ?? true) && !admit(clientOf(served))) {
      metrics?.rateLimited()
      return early(429, corsHeaders, refusalBody(served.path, 429, `rate limit exceeded: ${options.rateLimitPerMinute} requests a minute`))
    }
    if (readOnly && !SAFE_METHODS.has(served.method)) {
      return early(405, { ...preflightHeaders(corsHeaders, origin), allow: 'GET, OPTIONS' }, refusalBody(served.path, 405, 'method not allowed'))
    }
    if (getOnly && served.method !== 'GET') return early(404, corsHeaders, refusalBody(served.path, 404, 'not found'))
    if (maxBody !== undefined) {
      const declared = Number(request.headers.get('content-length') ?? 0)
      if (declared > maxBody) return early(413, corsHeaders, refusalBody(served.path, 413, `payload too large (limit ${maxBody} bytes)`))
    }
    return null
  }

  /** GET /metrics: the service's metrics in Prometheus's text format, after the same checks as any request. */
  const metricsAnswer = async (): Promise<Response> => new Response(await metrics!.text(), { headers: { 'content-type': metrics!.contentType } })

  const serve = (fetch: FetchHandler, routes?: readonly DeclaredRoute[]): FetchHandler => {
    if (routes) {
      routeOf = routeLabels(routes)
      if (options.originRefusedOnRoutesOnly) isRoute = routesByMethod(routes, metrics !== undefined)
    }
    return (request, server) => handle(fetch, request, server)
  }
  const handle = (fetch: FetchHandler, request: Request, server: Server<unknown>): ReturnType<FetchHandler> => {
    const method = request.method
    const served: Served = { service, method, path: requestPath(request.url), started: performance.now(), request, server, client: null }
    const corsHeaders: Record<string, string> = {}
    const refused = check(request, served, corsHeaders)
    if (refused) {
      logRequest(served, refused.status)
      return refused
    }
    const routed = routable(request, method)
    requests.set(routed, served)
    /** The answer with the headers of every answer, and its line in the log. */
    const finish = (response: Response | undefined): Response | undefined => {
      // A WebSocket upgrade took the request: Bun answers 101 itself.
      if (response === undefined) {
        logRequest(served, 101)
        return response
      }
      let answer = withHeaders(response, corsHeaders)
      if (method === 'HEAD') answer = headAnswer(answer)
      logRequest(served, answer.status)
      return answer
    }
    /** What escaped the app's own error handling: logged, and the JSON 500 of the conventions. */
    const failed = (error: unknown) => {
      log.error({ service, err: error, method, path: served.path }, 'unhandled error')
      return finish(early(500, {}, errorBody('internal error')))
    }
    if (metrics && served.path === METRICS_PATH && (method === 'GET' || method === 'HEAD')) return metricsAnswer().then(finish, failed)
    let result: ReturnType<FetchHandler>
    try {
      result = requestContext.run(served, () => fetch(routed, server))
    } catch (error) {
      return failed(error)
    }
    return result instanceof Promise ? result.then(finish, failed) : finish(result)
  }

  const client = (request: Request) => {
    const served = requests.get(request)
    if (!served) throw new Error(`${service}: the client of a request asked outside the conventions (is the app served by listen?)`)
    return clientOf(served)
  }
  const plugin = conventionsPlugin(service, log, (request) => requests.get(request), options.notFoundPage)
  const own: Conventions = { plugin, client, serve }
  // Every app that uses the plugin keeps its decorator: how listen finds the conventions again.
  plugin.decorate('conventions', own)
  return own
}

/**
 * Whether `routes` take a request of this method and path: a route declared for the method (a
 * HEAD is answered by the GET's), one declared for every method, or /metrics when the service
 * shows its metrics. Built only for a service that asks, and asked only of a refused Origin.
 */
function routesByMethod(routes: readonly DeclaredRoute[], withMetrics: boolean): (method: string, path: string) => boolean {
  const byMethod = new Map<string, (path: string) => string | null>()
  for (const method of new Set(routes.map((route) => route.method))) byMethod.set(method, routeLabels(routes.filter((route) => route.method === method)))
  const any = byMethod.get('ALL')
  return (method, path) => {
    const routed = method === 'HEAD' ? 'GET' : method
    if (withMetrics && routed === 'GET' && path === METRICS_PATH) return true
    return (byMethod.get(routed)?.(path) ?? any?.(path) ?? null) !== null
  }
}

/** The conventions of an app: those whose plugin it uses; null for an app without them. */
export function conventionsOf(app: { decorator: unknown }): Conventions | null {
  return (app.decorator as { conventions?: Conventions }).conventions ?? null
}

/** The Elysia side of the conventions: errors thrown inside the app become JSON answers of their status. */
function conventionsPlugin(service: string, log: Logger, servedOf: (request: Request) => RequestInfo | undefined, notFoundPage?: ConventionsOptions['notFoundPage']) {
  return new Elysia({ name: 'conventions', seed: service }).onError({ as: 'global' }, ({ code, error, set, request }) => {
    if (code === 'NOT_FOUND' && notFoundPage) {
      const page = notFoundPage(request, servedOf(request)?.path ?? requestPath(request.url))
      if (page) return page
    }
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
      const served = servedOf(request)
      log.error({ service, err: error, method: served?.method ?? request.method, path: served?.path ?? requestPath(request.url) }, 'unhandled error')
    }
    set.status = status
    set.headers['content-type'] = JSON_TYPE
    return errorBody(message, extra)
  })
}

/**
 * The request as the app's router should see it. Elysia reads the path of `request.url` from its
 * first `/` past the eleventh character, which a short Host (`Host: x`), a bare path (HTTP/1.0
 * without a Host) or an absolute-form target moves: such a URL is written again with the path
 * where the router looks. HEAD is routed as GET and answered without the body, as Bun's own
 * router does: the app's fetch would read the whole body to count it, and a stream (the live
 * stats) has no end. Anything else goes through as it came.
 */
function routable(request: Request, method: string): Request {
  const url = request.url
  const start = pathStart(url)
  const moved = start >= 0 && url.indexOf('/', ELYSIA_PATH_FROM) !== start
  if (!moved && method !== 'HEAD') return request
  return new Request(moved ? `http://localhost${url.slice(start)}` : url, method === 'HEAD' ? { method: 'GET', headers: request.headers } : request)
}

/**
 * The answer to a HEAD, from the answer its GET got: Bun writes a HEAD's headers with the length
 * of a body it holds whole and leaves the body unsent, and for a stream (the live stats) cancels
 * it unread and says `transfer-encoding: chunked`, as the GET's answer does. A stream that
 * declares its length (an answer passed on from another server) would lose that length there:
 * it is cancelled here and its declared length kept.
 */
function headAnswer(answer: Response): Response {
  if (!answer.headers.has('content-length')) return answer
  void answer.body?.cancel()
  return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers })
}

/** Elysia's router takes the path from the first `/` at or after this index of the URL (its "standard hostname"). */
const ELYSIA_PATH_FROM = 11

/**
 * `response` with the headers every answer carries. A response whose headers cannot change (one
 * passed on from another server) is copied first.
 */
function withHeaders(response: Response, corsHeaders: Record<string, string>): Response {
  let answer = response
  try {
    set(answer.headers, corsHeaders)
  } catch {
    answer = new Response(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) })
    set(answer.headers, corsHeaders)
  }
  return answer
}

function set(headers: Headers, corsHeaders: Record<string, string>): void {
  headers.set('cache-control', ALWAYS_HEADERS['cache-control'])
  headers.set('x-content-type-options', ALWAYS_HEADERS['x-content-type-options'])
  for (const name in corsHeaders) headers.set(name, corsHeaders[name]!)
}

/** The socket's peer, or null once the connection is gone (Bun may no longer know it). */
function peerAddress(request: Request, server: Server<unknown>): string | null {
  try {
    return server.requestIP(request)?.address ?? null
  } catch {
    return null
  }
}
