import { useEffect, useState } from 'preact/hooks'
import { getJson } from './api.ts'

// What the pages call an address whose row came without a label (a transfer's ends, the exchange
// index's rows): its tag label, else its name as a pair or pool of the exchange, else the name it
// goes by (its reverse record). The addresses a page draws in one go are asked in one request (/api/names), and each answer is kept a minute:
// labels and names change rarely, and a page that redraws asks nothing. The memo is a Map, not
// the server's lru-cache: what it does beyond keeping (gathering, redrawing) is its own, and the
// library would add about a fifth to the pages' script for a memo that lives as long as the page.

/** The most addresses one request asks (the API's own bound). */
const PER_REQUEST = 100
/** How long a name (or the lack of one) is kept. */
const KEEP_MS = 60_000
/** How long the pages wait for more addresses before asking: one page's rows make one request. */
const GATHER_MS = 10

const known = new Map<string, { name: string | null; at: number }>()
const wanted = new Set<string>()
const asking = new Set<string>()
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setTimeout> | null = null

const fresh = (key: string) => {
  const hit = known.get(key)
  return hit !== undefined && Date.now() - hit.at <= KEEP_MS ? hit : null
}

async function ask(): Promise<void> {
  timer = null
  const batch = [...wanted].slice(0, PER_REQUEST)
  for (const key of batch) {
    wanted.delete(key)
    asking.add(key)
  }
  if (wanted.size > 0) timer = setTimeout(() => void ask(), GATHER_MS)
  let answer: { names: Record<string, string | null>; labels: Record<string, string | null>; pools?: Record<string, string | null> } = { names: {}, labels: {} }
  try {
    answer = await getJson(`/names?address=${batch.join(',')}`)
  } catch {
    // Without an answer (the minute's limit, the node away) the addresses show as they are, and
    // are not asked again before the minute is out.
  }
  const at = Date.now()
  // A tag label wins; then a pair's or pool's name (`BX/WETH · V2`); then the name it goes by.
  const answered = new Map(Object.entries(answer.names).map(([address, name]) => [address.toLowerCase(), answer.labels[address] ?? answer.pools?.[address] ?? name]))
  for (const key of batch) {
    known.set(key, { name: answered.get(key) ?? null, at })
    asking.delete(key)
  }
  for (const listener of listeners) listener()
}

/** What `address` is called (its label or name), null while unknown or when it has neither; the component draws again when it arrives. */
export function useName(address: string | null | undefined): string | null {
  const key = address ? address.toLowerCase() : null
  const [, redraw] = useState(0)
  useEffect(() => {
    if (key === null || fresh(key)) return
    const listener = () => {
      if (fresh(key)) redraw((n) => n + 1)
    }
    listeners.add(listener)
    if (!asking.has(key)) {
      wanted.add(key)
      timer ??= setTimeout(() => void ask(), GATHER_MS)
    }
    return () => {
      listeners.delete(listener)
    }
  }, [key])
  return key === null ? null : (fresh(key)?.name ?? null)
}
