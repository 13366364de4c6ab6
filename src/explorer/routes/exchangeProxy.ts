import { Elysia } from 'elysia'
import type { Peers } from '../../context.ts'
import { HttpError, JSON_TYPE } from '../../http/errors.ts'
import { pathStart } from '../../http/requestContext.ts'

// The exchange index sends no CORS header, so a page on this origin reads it through a
// proxy on this origin. Services never import each other: the exchange is reached over HTTP at
// the origin the composition root says it listens on.

/** Where the proxy answers; what follows it is the exchange's own path. */
export const EXCHANGE_PROXY_PREFIX = '/dex'

/** Long enough for the exchange's slowest answer (it keeps its answers); short enough that a stuck one frees the page. */
export const EXCHANGE_PROXY_TIMEOUT_MS = 5000

/**
 * The exchange's GET routes (docs/exchange.md "Routes"), an address segment as the exchange
 * takes it (with or without 0x, any case). Only letters and digits may fill a segment: no dot,
 * no percent sign, no slash, so nothing can climb out of the exchange's paths or name another
 * host, whatever the exchange itself would make of it.
 */
const EXCHANGE_PATHS = [
  /^\/(?:health|pools|tokens|swaps|events|stats)$/,
  /^\/pool\/[0-9A-Za-z]{1,64}$/,
  /^\/cl\/(?:pools|tiers|positions|ticks|swaps|events)$/,
  /^\/cl\/pool\/[0-9A-Za-z]{1,64}$/,
]

/** A query carries only what a URL's query may hold unescaped, and escapes; anything else is refused rather than re-encoded. */
const QUERY = /^[0-9A-Za-z\-._~!$&'()*+,;=:@/?%]*$/

/** Queries longer than this are no query of the exchange's (a few addresses and numbers). */
const MAX_QUERY = 512

/**
 * The exchange's path and query of a request to the proxy, from the request's URL as written
 * (a parsed URL would already have resolved dot segments, `%2e%2e` among them), or null when
 * it is not a path the exchange serves.
 */
export function exchangeTarget(url: string): string | null {
  const start = pathStart(url)
  if (start < 0) return null
  const hash = url.indexOf('#', start)
  const whole = hash < 0 ? url.slice(start) : url.slice(start, hash)
  const mark = whole.indexOf('?')
  const path = mark < 0 ? whole : whole.slice(0, mark)
  const query = mark < 0 ? '' : whole.slice(mark + 1)
  if (!path.startsWith(`${EXCHANGE_PROXY_PREFIX}/`)) return null
  const rest = path.slice(EXCHANGE_PROXY_PREFIX.length)
  if (!EXCHANGE_PATHS.some((pattern) => pattern.test(rest))) return null
  if (query.length > MAX_QUERY || !QUERY.test(query)) return null
  return query === '' ? rest : `${rest}?${query}`
}

/**
 * `GET /dex/*`: the same path and query asked of the exchange index, its status and
 * JSON body answered. 404 for a path the exchange does not serve (refused here, never sent),
 * 503 while the exchange's origin is unknown, 502 when it does not answer in time or not with
 * JSON. The explorer's conventions add their headers to every answer.
 */
export function exchangeProxy(peers: Peers | undefined, options: { timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? EXCHANGE_PROXY_TIMEOUT_MS
  return new Elysia({ name: 'explorer-exchange-proxy' }).get(`${EXCHANGE_PROXY_PREFIX}/*`, async ({ request }) => {
    const target = exchangeTarget(request.url)
    if (target === null) throw new HttpError(404, 'not found')
    const origin = peers?.url('exchange') ?? null
    if (origin === null) throw new HttpError(503, 'the exchange index is not running in this stack')
    const url = new URL(target, origin)
    // The checked target cannot move the origin; this says so where a change would break it.
    if (url.origin !== new URL(origin).origin) throw new HttpError(404, 'not found')
    let upstream: Response
    let body: string
    try {
      upstream = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) })
      body = await upstream.text()
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
      // The cause stays out of the answer: it may name the exchange's private address.
      throw new HttpError(502, timedOut ? `the exchange index did not answer within ${timeoutMs} ms` : 'the exchange index cannot be reached')
    }
    if (!(upstream.headers.get('content-type') ?? '').startsWith('application/json')) {
      throw new HttpError(502, `the exchange index answered ${upstream.status} without JSON`)
    }
    return new Response(body, { status: upstream.status, headers: { 'content-type': JSON_TYPE } })
  })
}
