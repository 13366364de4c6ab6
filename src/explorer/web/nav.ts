/**
 * The menu entry a page belongs to, for the menu to mark it (`aria-current`): the entry whose path
 * is the page's first segment, or the list a detail page is one of (a block is under Blocks, a
 * transaction under Transactions). Null for a page under none (a name, the 404).
 */
const PARENT: Record<string, string> = {
  '/block': '/blocks',
  '/minis': '/blocks',
  '/mini': '/blocks',
  '/tx': '/txs',
  '/token': '/tokens',
  '/nft': '/nfts',
  '/address': '/accounts',
}

export function currentSection(path: string, entries: readonly string[]): string | null {
  const first = `/${path.split('/')[1] ?? ''}`
  if (first === '/') return entries.includes('/') ? '/' : null
  const section = entries.includes(first) ? first : PARENT[first]
  return section !== undefined && entries.includes(section) ? section : null
}
