import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { foldKey } from '../search/fold.ts'
import { grouped, QUERY_MAX, resultsPage, searchFor, type SearchAnswer, type SearchResult } from './search.ts'
import './search.css'

/** Suggestions are asked for once typing pauses this long. */
const DEBOUNCE_MS = 150
/** At most this many suggestions under the box. */
const SUGGESTIONS = 8


/**
 * The header's search: an ARIA combobox (the input) with a listbox of suggestions grouped by
 * kind, asked for as one types. Arrow keys move through the suggestions, Enter opens the one
 * chosen, else the query's exact match, else the results page; Escape closes the list.
 */
export function SearchBox() {
  const { route } = useLocation()
  const [text, setText] = useState('')
  const [answer, setAnswer] = useState<SearchAnswer | null>(null)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const asked = useRef<AbortController | null>(null)

  useEffect(() => {
    asked.current?.abort()
    const query = text.trim()
    if (query === '') {
      setAnswer(null)
      return
    }
    const abort = new AbortController()
    asked.current = abort
    const timer = setTimeout(() => {
      searchFor(query, SUGGESTIONS, abort.signal)?.then(
        (found) => {
          if (abort.signal.aborted) return
          setAnswer(found)
          setActive(-1)
        },
        () => {
          // No suggestions then: Enter still opens the results page, which says what failed.
        },
      )
    }, DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [text])

  // Only an answer to what the box holds now; the suggestions in the order they are shown
  // (grouped), so that the arrow keys follow the screen.
  const current = answer && answer.query === foldKey(text) ? answer : null
  const groups = current ? grouped(current.results) : []
  const shown: SearchResult[] = groups.flatMap((group) => group.results)
  const expanded = open && shown.length > 0

  const go = (href: string) => {
    setText('')
    setAnswer(null)
    setOpen(false)
    setActive(-1)
    route(href)
  }

  const submit = async () => {
    const query = text.trim()
    if (query === '') return
    if (expanded && active >= 0 && shown[active]) return go(shown[active]!.href)
    const found = current ?? (await searchFor(query, SUGGESTIONS)?.catch(() => null)) ?? null
    go(found?.go ?? resultsPage(query))
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (shown.length === 0) return
      event.preventDefault()
      setOpen(true)
      const down = event.key === 'ArrowDown'
      // From the input (-1) through each suggestion and back to the input, either way round.
      if (!expanded) setActive(down ? 0 : shown.length - 1)
      else setActive((current) => (down ? (current === shown.length - 1 ? -1 : current + 1) : current === -1 ? shown.length - 1 : current - 1))
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault()
        setOpen(false)
        setActive(-1)
      }
    }
  }

  let index = -1
  return (
    <form
      class="search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <label for="search" class="visually-hidden">
        Search by transaction hash, block number, address or name
      </label>
      <div class="search-field">
        <input
          id="search"
          // A text input, not type=search: Escape would clear a search input, and it closes the list here.
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls="search-suggestions"
          aria-activedescendant={expanded && active >= 0 ? `search-option-${active}` : undefined}
          placeholder="Token, name, hash or block"
          value={text}
          maxLength={QUERY_MAX}
          onInput={(event) => {
            setText(event.currentTarget.value)
            setOpen(true)
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => setTimeout(() => setOpen(false), 150)}
          autocomplete="off"
          spellcheck={false}
        />
        <ul id="search-suggestions" role="listbox" aria-label="Suggestions" class="suggestions" hidden={!expanded}>
          {groups.map((group) => (
            <li key={group.kind} role="presentation">
              <span class="suggestion-group" id={`search-group-${group.kind}`} aria-hidden="true">
                {group.heading}
              </span>
              <ul role="group" aria-labelledby={`search-group-${group.kind}`}>
                {group.results.map((result) => {
                  index++
                  const at = index
                  return (
                    <li
                      key={result.href}
                      id={`search-option-${at}`}
                      role="option"
                      aria-selected={at === active}
                      class={at === active ? 'suggestion active' : 'suggestion'}
                      onMouseDown={(event) => {
                        // Before the input's blur closes the list.
                        event.preventDefault()
                        go(result.href)
                      }}
                    >
                      <ResultLine result={result} />
                    </li>
                  )
                })}
              </ul>
            </li>
          ))}
        </ul>
      </div>
      <button type="submit">Search</button>
    </form>
  )
}

/** One result as a line: its title, what else it is, and whether the registry lists the token (or a pair's or pool's tokens). */
export function ResultLine({ result }: { result: SearchResult }) {
  return (
    <span class="result-line">
      <span class="result-title wrap">{result.title}</span>
      {result.detail ? <span class="muted small wrap"> {result.detail}</span> : null}
      {result.listed === null ? null : result.listed ? <span class="badge listed">Listed</span> : <span class="badge unlisted">Unlisted</span>}
    </span>
  )
}
