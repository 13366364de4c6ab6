import { Elysia } from 'elysia'
import { InvalidInputError } from '../../errors.ts'
import type { Explorer } from '../explorer.ts'
import { clampLimit, PAGE } from '../paging.ts'
import { QUERY_MAX } from '../search/fold.ts'
import { search } from '../search/search.ts'

/**
 * `/search?q=...&limit=`: what the query names (docs/explorer.md, "Search"): `{query, go,
 * results}`, `go` the page of an exact match (null when there is none or several), `results` at
 * most `limit` (8 unless asked, at most 50) entries of `{kind, title, detail, address, href,
 * listed}`. A query longer than QUERY_MAX characters is refused (400); none, an empty one, or a
 * repeated `q` finds nothing. The query is text compared with text in memory: nothing of it
 * reaches SQL but a full hash, as bytes.
 */
export function searchRoutes(explorer: Explorer) {
  return new Elysia({ name: 'explorer-search' }).get('/search', async ({ query, request }) => {
    // A repeated `q` is no one query: Elysia's `query` would keep one of them silently.
    const given = new URL(request.url).searchParams.getAll('q')
    const q = given.length === 1 ? given[0]! : ''
    if (q.length > QUERY_MAX) throw new InvalidInputError(`q is at most ${QUERY_MAX} characters`)
    await explorer.search.refresh()
    return search(explorer.db, explorer.search, explorer.registry, q, clampLimit(query.limit, PAGE.search))
  })
}
