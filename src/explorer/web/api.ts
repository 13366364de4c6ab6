import { useEffect, useState } from 'preact/hooks'

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

/** GET `{base}{path}` on this origin as JSON; an answer that is not 2xx is an ApiError. */
export async function getJson<T>(path: string, signal?: AbortSignal, base = API): Promise<T> {
  const response = await fetch(`${base}${path}`, { signal, headers: { accept: 'application/json' } })
  const body = (await response.json().catch(() => null)) as (T & { error?: string }) | null
  if (!response.ok) throw new ApiError(response.status, body?.error ?? `${response.status} ${response.statusText}`)
  return body as T
}

export type Loaded<T> = { data: T | null; error: ApiError | null }

/** The answer of `path` under `base` (null: nothing to load), loaded again every `refreshMs` when given. */
export function useApi<T>(path: string | null, refreshMs?: number, base = API): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null })
  useEffect(() => {
    if (path === null) return
    const abort = new AbortController()
    setState({ data: null, error: null })
    const load = () =>
      getJson<T>(path, abort.signal, base).then(
        (data) => setState({ data, error: null }),
        (error: unknown) => {
          if (abort.signal.aborted) return
          setState((previous) => ({ data: previous.data, error: error instanceof ApiError ? error : new ApiError(0, String(error)) }))
        },
      )
    void load()
    const timer = refreshMs ? setInterval(load, refreshMs) : undefined
    return () => {
      abort.abort()
      clearInterval(timer)
    }
  }, [path, refreshMs, base])
  return state
}

/** The explorer's live stats (`/api/live`, a frame per update), reconnecting when the server closes it. */
export function useLiveStats<T>(initial: T | null): T | null {
  const [stats, setStats] = useState<T | null>(initial)
  useEffect(() => {
    let source: EventSource | null = null
    let closed = false
    const open = () => {
      source = new EventSource('/api/live')
      source.onmessage = (event) => setStats(JSON.parse(event.data as string) as T)
      source.onerror = () => {
        source?.close()
        if (!closed) setTimeout(open, 2000)
      }
    }
    open()
    return () => {
      closed = true
      source?.close()
    }
  }, [])
  return stats ?? initial
}
