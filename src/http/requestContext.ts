import { AsyncLocalStorage } from 'node:async_hooks'

/** What the logs say of a request: the service, its method and path, and when it arrived. */
export type RequestInfo = { service: string; method: string; path: string; started: number }

/**
 * The request whose work is running, for the process guard: an error thrown from a timer or a
 * stream a request started is logged with that request's method and path.
 */
export const requestContext = new AsyncLocalStorage<RequestInfo>()

/** Paths are logged whole up to this many characters (Bun allows request lines of 16 KiB). */
const MAX_LOGGED_PATH = 2048

/**
 * The path of a request, without its query, whatever Bun handed over as `request.url`: an
 * absolute URL (the usual case), a bare path (HTTP/1.0 without a Host header, or a Host that is
 * not a host), an authority (CONNECT) or anything else a client wrote. Never throws: `new URL`
 * on these is what used to end the process.
 */
export function requestPath(url: string): string {
  const start = pathStart(url)
  if (start < 0) return url.includes('://') ? '/' : shorten(url)
  let end = url.indexOf('?', start)
  if (end < 0) end = url.length
  const hash = url.indexOf('#', start)
  if (hash >= 0 && hash < end) end = hash
  return shorten(url.slice(start, end))
}

/**
 * Where the path of `url` starts: 0 for a bare path, the first `/` after the authority of an
 * absolute URL; -1 when there is no path (an absolute URL that ends, or goes on with a query,
 * after its authority; anything else that is no URL).
 */
export function pathStart(url: string): number {
  if (url.startsWith('/')) return 0
  const scheme = url.indexOf('://')
  if (scheme < 0) return -1
  let start = scheme + 3
  while (start < url.length && url[start] !== '/' && url[start] !== '?' && url[start] !== '#') start++
  return url[start] === '/' ? start : -1
}

function shorten(text: string): string {
  return text.length > MAX_LOGGED_PATH ? `${text.slice(0, MAX_LOGGED_PATH)}…` : text
}
