import { useRoute } from 'preact-iso'
import { useApi } from '../api.ts'
import { grouped, QUERY_MAX, type SearchAnswer } from '../search.ts'
import { ResultLine } from '../searchBox.tsx'
import { Section, WhenLoaded } from '../ui.tsx'

/** Results on the page: every kind, up to the API's most. */
const RESULTS = 50

/** `/search?q=`: everything the query names, grouped by kind, the registry's tokens and tags first in theirs. */
export function SearchPage() {
  const { query } = useRoute()
  const text = (query.q ?? '').trim().slice(0, QUERY_MAX)
  const loaded = useApi<SearchAnswer>(text === '' ? null : `/search?q=${encodeURIComponent(text)}&limit=${RESULTS}`)
  return (
    <Section title={text === '' ? 'Search' : `Search: ${text}`} id="search-results" main>
      {text === '' ? (
        <p class="muted">Type a token, a name, a label, a pair, an address, a transaction hash or a block number in the search box.</p>
      ) : (
        <WhenLoaded loaded={loaded} what="search">
          {(answer) =>
            answer.results.length === 0 ? (
              <p id="search-none">Nothing found for “{text}”: no token, label, name, pair or pool begins with it, and no block or transaction in the index has it (a new one may not be indexed yet).</p>
            ) : (
              grouped(answer.results).map((group) => (
                <section key={group.kind} class="search-group" aria-labelledby={`results-${group.kind}`}>
                  <h2 id={`results-${group.kind}`}>{group.heading}</h2>
                  <ul class="results">
                    {group.results.map((result) => (
                      <li key={result.href}>
                        <a href={result.href}>
                          <ResultLine result={result} />
                        </a>
                      </li>
                    ))}
                  </ul>
                </section>
              ))
            )
          }
        </WhenLoaded>
      )}
    </Section>
  )
}
