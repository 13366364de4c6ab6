/**
 * Where the search box goes with what was typed: a 32-byte hash to its transaction, an address
 * to its page, a number to its block, anything else to the name lookup. Null for nothing typed.
 */
export function searchTarget(text: string): string | null {
  const query = text.trim()
  if (query === '') return null
  if (/^0x[0-9a-fA-F]{64}$/.test(query)) return `/tx/${query.toLowerCase()}`
  if (/^0x[0-9a-fA-F]{40}$/.test(query)) return `/address/${query}`
  if (/^\d+$/.test(query)) return `/block/${BigInt(query)}`
  return `/name/${encodeURIComponent(query.toLowerCase())}`
}
