import { useEffect, useRef, useState } from 'preact/hooks'

/** An answer of the explorer's API that is not 2xx: its status and the `error` of its JSON body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** The explorer's own API on this origin; the exchange index is read through `/dex`. */
export const API = '/api'

/** What a page says when no answer came at all (the explorer away, the network down): never the browser's own words. */
export const UNREACHABLE = 'the explorer could not be reached'

/**
 * GET `{base}{path}` on this origin as JSON; an answer that is not 2xx is an ApiError, and no
 * answer at all an ApiError of status 0 (an abort stays the AbortError it is).
 */
export async function getJson<T>(path: string, signal?: AbortSignal, base = API): Promise<T> {
  const response = await fetch(`${base}${path}`, { signal, headers: { accept: 'application/json' } }).catch((error: unknown) => {
    if (signal?.aborted) throw error
    throw new ApiError(0, UNREACHABLE)
  })
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null
  if (!response.ok) throw new ApiError(response.status, body?.error ?? `${response.status} ${response.statusText}`)
  return body as T
}

export type Loaded<T> = { data: T | null; error: ApiError | null }

/** The event a failure's "Try again" sends: every answer that failed is asked for again. */
export const RETRY_EVENT = 'explorer:retry'

/** Asks again for every answer on the page that failed (a failure card's button). */
export const retryFailed = () => window.dispatchEvent(new Event(RETRY_EVENT))

/** The answer of `path` under `base` (null: nothing to load), loaded again every `refreshMs` when given. */
export function useApi<T>(path: string | null, refreshMs?: number, base = API): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null })
  useEffect(() => {
    if (path === null) return
    const abort = new AbortController()
    setState({ data: null, error: null })
    let failed = false
    const load = () =>
      getJson<T>(path, abort.signal, base).then(
        (data) => {
          failed = false
          setState({ data, error: null })
        },
        (error: unknown) => {
          if (abort.signal.aborted) return
          failed = true
          setState((previous) => ({ data: previous.data, error: error instanceof ApiError ? error : new ApiError(0, UNREACHABLE) }))
        },
      )
    const retry = () => {
      if (failed) void load()
    }
    void load()
    const timer = refreshMs ? setInterval(load, refreshMs) : undefined
    window.addEventListener(RETRY_EVENT, retry)
    return () => {
      abort.abort()
      clearInterval(timer)
      window.removeEventListener(RETRY_EVENT, retry)
    }
  }, [path, refreshMs, base])
  return state
}

/** The live stream's state: `live` while frames arrive, `reconnecting` once it dropped and could not be opened again at once. */
export type LiveState = 'connecting' | 'live' | 'reconnecting'

/** Seconds between attempts to open the stream again after a failed one. */
const LIVE_RETRY_MS = 2000

/**
 * The explorer's live stats (`/api/live`, a frame per update). The server ends every stream
 * after a while and the first frame of the next one is the stats as they are then, so a drop is
 * opened again at once and said (`reconnecting`) only when that fails; then every two seconds
 * until it answers, and its first frame catches the page up. `onReconnect` runs when a stream
 * that had dropped is back, for a page to load again what it shows beside the stats.
 */
export function useLiveStats<T>(initial: T | null, onReconnect?: () => void): { stats: T | null; state: LiveState } {
  const [stats, setStats] = useState<T | null>(initial)
  const [state, setLiveState] = useState<LiveState>('connecting')
  const reconnected = useRef(onReconnect)
  reconnected.current = onReconnect
  useEffect(() => {
    let source: EventSource | null = null
    let closed = false
    let timer: ReturnType<typeof setTimeout> | undefined
    // Attempts since the last frame: the first drop is retried at once, unsaid.
    let failures = 0
    let dropped = false
    const open = () => {
      source = new EventSource('/api/live')
      source.onmessage = (event) => {
        if (dropped) reconnected.current?.()
        failures = 0
        dropped = false
        setLiveState('live')
        setStats(JSON.parse(event.data as string) as T)
      }
      source.onerror = () => {
        source?.close()
        if (closed) return
        failures++
        if (failures > 1) {
          dropped = true
          setLiveState('reconnecting')
        }
        timer = setTimeout(open, failures > 1 ? LIVE_RETRY_MS : 0)
      }
    }
    open()
    return () => {
      closed = true
      clearTimeout(timer)
      source?.close()
    }
  }, [])
  return { stats: stats ?? initial, state }
}
