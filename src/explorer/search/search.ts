import type { SpoolDb } from '../../spool/engine.ts'
import { checksum, parseAddress } from '../../eth/address.ts'
import { blob } from '../../eth/bytes.ts'
import { blockNumberByHash, spoolHead, txByHash } from '../../spool/read.ts'
import type { RegistryView } from '../registryView.ts'
import type { SearchAnswer, SearchResult } from '../../answers/search.ts'
import { present, type SearchCatalog } from './catalog.ts'
import { foldKey } from './fold.ts'

const HASH = /^0x[0-9a-f]{64}$/
const DIGITS = /^[0-9]{1,15}$/

/**
 * A search: what the query is by its form (a transaction or block hash, an address, a block
 * number), then the names that begin with it, the registry's first (its tokens and tags), then
 * the chain's (launched tokens, `.bx` names, pairs and pools). Every step is an index: a hash or a
 * number is one lookup by key in the spool, a name one binary search in memory.
 */
export async function search(db: SpoolDb, catalog: SearchCatalog, registry: RegistryView, text: string, limit: number): Promise<SearchAnswer> {
  const query = foldKey(text)
  const answer: SearchAnswer = { query, go: null, results: [] }
  if (query === '') return answer
  const found = answer.results

  if (HASH.test(query)) {
    const tx = await txByHash(db, blob(query))
    if (tx) found.push({ kind: 'tx', title: query, detail: null, address: null, href: `/tx/${query}`, listed: null })
    const block = await blockNumberByHash(db, blob(query))
    if (block !== null) found.push({ kind: 'block', title: `Block ${block}`, detail: query, address: null, href: `/block/${block}`, listed: null })
    answer.go = found.length === 1 ? found[0]!.href : null
    return answer
  }
  const address = parseAddress(text.trim())
  if (address && /^0x/i.test(text.trim())) {
    const name = registry.labelName(address) ?? registry.token(address)?.name ?? null
    found.push({ kind: 'address', title: name ?? checksum(address), detail: name ? checksum(address) : null, address, href: `/address/${address}`, listed: null })
    answer.go = found[0]!.href
    return answer
  }
  if (DIGITS.test(query)) {
    const number = Number(query)
    const head = await spoolHead(db)
    if (head !== null && number <= head) {
      found.push({ kind: 'block', title: `Block ${number}`, detail: null, address: null, href: `/block/${number}`, listed: null })
      answer.go = found[0]!.href
    }
  }

  const listed = catalog.listed.find(query, limit)
  const chain = catalog.chain.find(query, limit)
  const ranked = [...listed.filter((hit) => hit.exact), ...listed.filter((hit) => !hit.exact), ...chain.filter((hit) => hit.exact), ...chain.filter((hit) => !hit.exact)]
  for (const hit of ranked) {
    if (found.length >= limit) break
    found.push(present(hit.entry))
  }
  // The registry's word first: a launched token that copies a listed symbol does not take its place.
  answer.go ??= onlyPage(listed) ?? (listed.some((hit) => hit.exact) ? null : onlyPage(chain))
  return answer
}

/** The page the exact hits name when they all name one; null for none or several. */
function onlyPage(hits: Array<{ entry: SearchResult; exact: boolean }>): string | null {
  const pages = new Set(hits.filter((hit) => hit.exact).map((hit) => hit.entry.href))
  const exact = hits.find((hit) => hit.exact)
  return pages.size === 1 ? present(exact!.entry).href : null
}
