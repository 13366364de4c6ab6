import type { SearchAnswer, SearchKind, SearchResult } from '../../answers/search.ts'
import { QUERY_MAX } from '../search/fold.ts'
import { getJson } from './api.ts'

export type { SearchAnswer, SearchResult }
export { QUERY_MAX }

/** The kinds in the order results are grouped, with their headings. */
export const KIND_GROUPS: Array<[SearchKind, string]> = [
  ['address', 'Address'],
  ['tx', 'Transaction'],
  ['block', 'Blocks'],
  ['token', 'Tokens'],
  ['label', 'Labelled contracts'],
  ['pair', 'Pairs'],
  ['pool', 'Pools'],
  ['name', '.bx names'],
]

/** `/api/search` for `text` (trimmed, cut to QUERY_MAX); null for nothing typed. */
export function searchFor(text: string, limit: number, signal?: AbortSignal): Promise<SearchAnswer> | null {
  const query = text.trim().slice(0, QUERY_MAX)
  if (query === '') return null
  return getJson<SearchAnswer>(`/search?q=${encodeURIComponent(query)}&limit=${limit}`, signal)
}

/** The results in the order of KIND_GROUPS, each group keeping the API's order (its ranking). */
export function grouped(results: SearchResult[]): Array<{ kind: SearchKind; heading: string; results: SearchResult[] }> {
  return KIND_GROUPS.map(([kind, heading]) => ({ kind, heading, results: results.filter((result) => result.kind === kind) })).filter((group) => group.results.length > 0)
}

/** Where the results page for `text` is. */
export const resultsPage = (text: string) => `/search?q=${encodeURIComponent(text.trim().slice(0, QUERY_MAX))}`
