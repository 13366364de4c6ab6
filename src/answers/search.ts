// The explorer's `/api/search` answer (docs/explorer.md, "Search"), built by the explorer and read
// by its pages.

/** What a result is, and so which page it opens. */
export type SearchKind = 'token' | 'label' | 'name' | 'pair' | 'pool' | 'block' | 'tx' | 'address'

/**
 * One thing a query names. `listed`: whether the registry lists a token, or both tokens of a
 * pair or pool (a launched token may copy a listed one's symbol, and so name its pair alike);
 * null for every other kind.
 */
export type SearchResult = { kind: SearchKind; title: string; detail: string | null; address: string | null; href: string; listed: boolean | null }

/** `go`: the one page the query names exactly, null when it names none or several. */
export type SearchAnswer = { query: string; go: string | null; results: SearchResult[] }
