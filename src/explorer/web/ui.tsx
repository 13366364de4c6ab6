import { createContext, type ComponentChildren } from 'preact'
import { useContext, useEffect } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { retryFailed, useApi, type ApiError, type Loaded } from './api.ts'
import { absolute, count, relative, short } from './format.ts'
import { useName } from './names.ts'

// The small parts every page is made of. Links are plain anchors: the router takes the clicks
// on this origin's paths, so every link also opens in a new tab and can be copied.

/**
 * An address as a link to its page, named by its tag label when it has one, else by the name it
 * goes by (its reverse record, asked once for all the addresses a page draws), else cut to its
 * ends; `full` writes the whole address, after the label or name when there is one ('unnamed':
 * only when there is neither, as in a decoded argument).
 */
export function AddressLink({ address, label, full = false }: { address: string | null | undefined; label?: string | null; full?: boolean | 'unnamed' }) {
  const name = useName(label ? null : address)
  if (!address) return <span class="muted">–</span>
  const shown = label || name
  if (!shown) {
    return (
      <a class="mono address" href={`/address/${address}`} title={address}>
        {full ? address : short(address)}
      </a>
    )
  }
  return (
    <>
      <a class="address" href={`/address/${address}`} title={address}>
        {shown}
      </a>
      {full === true ? <span class="mono muted wrap"> {address}</span> : null}
    </>
  )
}

export function TxLink({ hash, full = false }: { hash: string; full?: boolean }) {
  return (
    <a class="mono" href={`/tx/${hash}`} title={hash}>
      {full ? hash : short(hash)}
    </a>
  )
}

export function BlockLink({ number }: { number: number }) {
  return <a href={`/block/${number}`}>{number.toLocaleString('en-US')}</a>
}

/** A time as "12 s ago", with the date and time in UTC on hover (and written out too when `both`). */
export function Time({ seconds, both = false }: { seconds: number; both?: boolean }) {
  return (
    <time dateTime={new Date(seconds * 1000).toISOString()} title={absolute(seconds)}>
      {relative(seconds)}
      {both ? <span class="muted"> ({absolute(seconds)})</span> : null}
    </time>
  )
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  )
}

/** What `children` makes of an answer once it is there; before, its failure or its loading line. */
export function WhenLoaded<T>({ loaded, what, children }: { loaded: Loaded<T>; what: string; children: (data: T) => ComponentChildren }) {
  const { data, error } = loaded
  if (error && !data) return <Failure error={error} what={what} />
  if (!data) return <Loading what={what} />
  return <>{children(data)}</>
}

/**
 * What failed, with a way on: inside a card, a line and "Try again"; as a whole page (nothing
 * else to show), its own card with the page's h1, the search and the home page's link. A 404 of
 * a transaction hash or of a block past the index's head says the thing is not yet indexed.
 */
export function Failure({ error, what }: { error: ApiError; what: string }) {
  const inCard = useContext(InCard)
  const missing = error.status === 404
  const message = missing ? `No such ${what}: ${error.message}.` : `The ${what} could not be loaded: ${error.message}.`
  if (inCard) {
    return (
      <div class="failure-line" role="alert">
        <p class="failure">{message}</p>
        {missing ? null : <TryAgain />}
      </div>
    )
  }
  return <FailureCard message={message} missing={missing} what={what} />
}

function TryAgain({ label = 'Try again' }: { label?: string }) {
  return (
    <button type="button" class="secondary" onClick={retryFailed}>
      {label}
    </button>
  )
}

/** A page that failed whole: its h1, what failed, and the ways on (again, home, search). */
function FailureCard({ message, missing, what }: { message: string; missing: boolean; what: string }) {
  const pending = useNotYetIndexed(missing)
  return (
    <section class="card failure-card" role="alert" id="failure">
      <h1>{pending?.kind === 'block' ? `Block ${count(pending.number)} is not yet indexed` : missing ? `No such ${what}` : `The ${what} could not be loaded`}</h1>
      {pending?.kind === 'block' ? null : <p class="failure">{message}</p>}
      {pending ? (
        <p id="not-yet-indexed">
          {pending.kind === 'block'
            ? `The index has reached block ${count(pending.head)}: this block shows here once the chain has made it and the index has read it. The page looks again every few seconds.`
            : `A transaction sent moments ago is not yet indexed: the index has reached block ${count(pending.head)}.`}
        </p>
      ) : null}
      <p class="ways-on">
        {!missing ? <TryAgain /> : pending?.kind === 'tx' ? <TryAgain label="Look again" /> : null}
        <a href="/">Back to the chain</a>
        <a href="#search" onClick={focusSearch}>
          Search
        </a>
      </p>
    </section>
  )
}

/** The search box's field, focused (the 404 and failure cards' "Search"). */
function focusSearch(event: Event) {
  const input = document.getElementById('search')
  if (!input) return
  event.preventDefault()
  input.focus()
}

/** How often the page of a block past the index's head asks again. */
const PENDING_RETRY_MS = 4000

type Pending = { kind: 'tx'; head: number } | { kind: 'block'; number: number; head: number }

/**
 * For a 404 on a transaction hash or on a block number past the index's head: the index's head,
 * read from the stats. Such a block is asked for again every few seconds, so the page draws once
 * the index has it. Null for anything else (a missing block at or below the head is a gap, and
 * its 404 says so).
 */
function useNotYetIndexed(missing: boolean): Pending | null {
  const { path } = useLocation()
  const tx = /^\/tx\/0x[0-9a-fA-F]{64}$/.test(path)
  const block = /^\/block\/(\d{1,15})$/.exec(path)
  const stats = useApi<{ indexedBlock: number | null }>(missing && (tx || block) ? '/stats' : null)
  const head = stats.data?.indexedBlock ?? null
  const pending: Pending | null = head === null ? null : tx ? { kind: 'tx', head } : block && Number(block[1]) > head ? { kind: 'block', number: Number(block[1]), head } : null
  const waiting = pending?.kind === 'block'
  useEffect(() => {
    if (!waiting) return
    const timer = setInterval(retryFailed, PENDING_RETRY_MS)
    return () => clearInterval(timer)
  }, [waiting])
  return pending
}

/**
 * A card with its heading. The page's own card (`main`) carries the page's one h1, which names
 * the browser's tab (see PageTitle in main.tsx); `tab` names it otherwise (a transaction by its
 * short hash).
 */
export function Section({ title, children, id, main = false, tab }: { title: string; children: ComponentChildren; id?: string; main?: boolean; tab?: string }) {
  const Heading = main ? 'h1' : 'h2'
  return (
    <section class="card" id={id} aria-labelledby={id ? `${id}-title` : undefined}>
      <Heading id={id ? `${id}-title` : undefined} data-tab={main ? tab : undefined}>
        {title}
      </Heading>
      <InCard.Provider value={true}>{children}</InCard.Provider>
    </section>
  )
}

/** Whether a part is drawn inside a card (a failure there is a line, not a card of its own). */
const InCard = createContext(false)

/** A definition list of a thing's fields: [name, value] pairs, a value of null left out. */
export function Fields({ rows }: { rows: Array<[string, ComponentChildren | null | undefined]> }) {
  return (
    <dl class="fields">
      {rows
        .filter(([, value]) => value !== null && value !== undefined)
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  )
}

/** The registry's mark on a token or collection it lists. */
export function Verified({ verified }: { verified: boolean }) {
  return verified ? (
    <span class="badge good" title="listed in the token registry">
      verified
    </span>
  ) : null
}

/** Rows a page of a paged list asks for. */
export const PAGE_ROWS = 25

/** `offset` of the page's query, a whole number or 0. */
export const offsetOf = (query: Record<string, string>) => Math.max(Number.parseInt(query.offset ?? '0', 10) || 0, 0)

/** Previous and next pages of a list paged by limit and offset (docs/explorer.md), with the rows shown. */
export function Pager({ base, offset, limit, shown }: { base: string; offset: number; limit: number; shown: number }) {
  const link = (at: number) => `${base}${base.includes('?') ? '&' : '?'}offset=${at}`
  return (
    <nav class="pager" aria-label="pages">
      {offset > 0 ? <a href={link(Math.max(offset - limit, 0))}>← Newer</a> : <span class="muted">← Newer</span>}
      <span class="muted">{shown === 0 ? (offset > 0 ? 'past the end' : '') : `${offset + 1}–${offset + shown}`}</span>
      {shown === limit ? <a href={link(offset + limit)}>Older →</a> : <span class="muted">Older →</span>}
    </nav>
  )
}
