import type { Rpc } from '../chain/rpc.ts'
import { quantity } from '../eth/quantity.ts'

/** How long one read of a running stack may take. */
export const PROBE_MS = 2000

export type Body = Record<string, any>

/** GETs `url`, giving its status and JSON body (null when it is not JSON); throws when nothing answers in time. */
export async function getJson(url: string): Promise<{ status: number; body: Body | null; text: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_MS) })
  const text = await response.text()
  let body: Body | null = null
  try {
    body = JSON.parse(text) as Body
  } catch {
    // Not JSON (a page): the caller reads the status.
  }
  return { status: response.status, body, text }
}

/** The JSON body of a successful answer; null for any other answer, or none. */
export const okBody = (url: string): Promise<Body | null> =>
  getJson(url).then(
    ({ status, body }) => (status >= 200 && status < 300 ? body : null),
    () => null,
  )

/** The node's head, or null when it does not answer. */
export const nodeHead = (rpc: Rpc): Promise<number | null> =>
  rpc.call<string>('eth_blockNumber').then(
    (hex) => quantity(hex),
    () => null,
  )
