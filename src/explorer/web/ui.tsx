import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import type { ApiError, Loaded } from './api.ts'
import { absolute, relative, short } from './format.ts'
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

export function Failure({ error, what }: { error: ApiError; what: string }) {
  return (
    <p class="failure" role="alert">
      {error.status === 404 ? `No such ${what}: ${error.message}.` : `The ${what} could not be loaded: ${error.message}.`}
    </p>
  )
}

/**
 * A card with its heading. The page's own card (`main`) carries the page's one h1 and names the
 * browser's tab after it.
 */
export function Section({ title, children, id, main = false }: { title: string; children: ComponentChildren; id?: string; main?: boolean }) {
  useEffect(() => {
    if (main) document.title = `${title} · Chain 78270 explorer`
  }, [main, title])
  const Heading = main ? 'h1' : 'h2'
  return (
    <section class="card" id={id} aria-labelledby={id ? `${id}-title` : undefined}>
      <Heading id={id ? `${id}-title` : undefined}>{title}</Heading>
      {children}
    </section>
  )
}

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
      <span class="muted">
        {shown === 0 ? 'none' : `${offset + 1}–${offset + shown}`}
      </span>
      {shown === limit ? <a href={link(offset + limit)}>Older →</a> : <span class="muted">Older →</span>}
    </nav>
  )
}
