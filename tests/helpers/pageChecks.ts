import type { Page } from 'playwright-core'
import type { PagesStack } from './explorerPages.ts'

// What every explorer page is measured by in Chromium: it fits its viewport, has one h1 and a tab
// title, and every text on it can be read against what is behind it. The measurements run in
// the page, from what Chromium rendered.

/** A kind of page and one path of it, with what its tab's title must contain. */
export type PageKind = { kind: string; path: string; title: string }

/** Waits until the page drew its answers: an h1, and no "Loading …" line left. */
export async function settled(page: Page, timeoutMs = 20_000): Promise<void> {
  await page.waitForFunction(
    () => {
      const { document } = globalThis as any
      return document.querySelector('main h1') !== null && ![...document.querySelectorAll('main [role=status]')].some((status: any) => (status.textContent ?? '').startsWith('Loading'))
    },
    undefined,
    { timeout: timeoutMs, polling: 100 },
  )
}

/** Counts the page's fetches in flight, for `answersSettled`: installed before the page loads. */
export const countFetches = (page: Page) =>
  page.addInitScript(() => {
    const scope = globalThis as any
    const original = scope.fetch.bind(scope)
    scope.fetchesInFlight = 0
    scope.fetch = (...args: unknown[]) => {
      scope.fetchesInFlight++
      return original(...args).finally(() => scope.fetchesInFlight--)
    }
  })

/**
 * Waits, once a page is `settled`, for what it asks for after drawing (the names of the addresses
 * it shows, gathered for 10 ms and then fetched): until no fetch has been in flight for three
 * frames, each followed by 20 ms. The drawing's effects run after its next frame, and the page's
 * timers in the order they fall due, so a fetch the drawing scheduled has started before the
 * second of these waits ends, however slow the machine. Needs `countFetches`.
 */
export const answersSettled = (page: Page) =>
  page.evaluate(async () => {
    const scope = globalThis as any
    const frame = () => new Promise((resolve) => scope.requestAnimationFrame(() => scope.setTimeout(resolve, 20)))
    for (let quiet = 0, frames = 0; quiet < 3; frames++) {
      if (frames === 1000) throw new Error(`the page kept ${scope.fetchesInFlight} fetches open`)
      await frame()
      quiet = scope.fetchesInFlight === 0 ? quiet + 1 : 0
    }
  })

/** How far the document is wider than the viewport (0 when it fits). */
export const overflow = (page: Page) =>
  page.evaluate(() => {
    const { document, window } = globalThis as any
    return (document.documentElement.scrollWidth - window.innerWidth) as number
  })

/** The h1s' texts and the tab's title. */
export const headings = (page: Page) =>
  page.evaluate(() => {
    const { document } = globalThis as any
    return { h1: [...document.querySelectorAll('h1')].map((h1: any) => (h1.textContent ?? '').replace(/\s+/g, ' ').trim()) as string[], title: document.title as string }
  })

/** A text below its minimum contrast: the text, the ratio, the minimum, its colour and background. */
export type LowContrast = { text: string; ratio: number; minimum: number; color: string; background: string; element: string }

/**
 * Every visible text node whose colour, against the background actually behind it (the
 * backgrounds of its element and ancestors composited, the ancestors' opacity applied), is below
 * WCAG's minimum: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
 */
export function lowContrast(page: Page): Promise<LowContrast[]> {
  return page.evaluate(() => {
    // Run in the page: its globals, untyped here (the tests' programs have no DOM types).
    const { document, getComputedStyle, matchMedia, NodeFilter } = globalThis as any
    type Rgba = [number, number, number, number]
    const parse = (css: string): Rgba => {
      const parts = (/rgba?\(([^)]*)\)/.exec(css)?.[1] ?? '0 0 0 0').split(/[\s,/]+/).filter(Boolean).map(Number)
      return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1]
    }
    const over = (top: Rgba, bottom: Rgba): Rgba => {
      const alpha = top[3] + bottom[3] * (1 - top[3])
      if (alpha === 0) return [0, 0, 0, 0]
      const mix = (i: number) => (top[i]! * top[3] + bottom[i]! * bottom[3] * (1 - top[3])) / alpha
      return [mix(0), mix(1), mix(2), alpha]
    }
    const channel = (value: number) => {
      const c = value / 255
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    }
    const luminance = ([r, g, b]: Rgba) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    const ratio = (a: Rgba, b: Rgba) => {
      const [la, lb] = [luminance(a), luminance(b)]
      return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
    }
    const canvas: Rgba = parse(getComputedStyle(document.documentElement).colorScheme.includes('dark') && matchMedia('(prefers-color-scheme: dark)').matches ? 'rgb(18, 18, 18)' : 'rgb(255, 255, 255)')
    const backgroundOf = (element: any): Rgba => {
      const layers: Rgba[] = []
      for (let at: any = element; at; at = at.parentElement) {
        const layer = parse(getComputedStyle(at).backgroundColor)
        if (layer[3] > 0) layers.push(layer)
        if (layer[3] === 1) break
      }
      return layers.reduceRight((below, layer) => over(layer, below), canvas)
    }
    const opacityOf = (element: any) => {
      let opacity = 1
      for (let at: any = element; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity)
      return opacity
    }
    const describe = (element: any) => `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}`
    const low: LowContrast[] = []
    const seen = new Set<any>()
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement
      if (!element || seen.has(element) || !(node.textContent ?? '').trim()) continue
      seen.add(element)
      if (element.closest('.visually-hidden, [hidden], noscript, script, style')) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      const box = range.getBoundingClientRect()
      if (box.width === 0 || box.height === 0) continue
      const style = getComputedStyle(element)
      if (style.visibility !== 'visible') continue
      const background = backgroundOf(element)
      const color = parse(style.color)
      const seenColor = over([color[0], color[1], color[2], color[3] * opacityOf(element)], background)
      const size = Number.parseFloat(style.fontSize)
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
      const minimum = large ? 3 : 4.5
      const measured = ratio(seenColor, background)
      if (measured < minimum) {
        low.push({ text: (node.textContent ?? '').trim().slice(0, 40), ratio: Math.round(measured * 100) / 100, minimum, color: style.color, background: `rgb(${background.slice(0, 3).map(Math.round).join(', ')})`, element: describe(element) })
      }
    }
    return low
  })
}

/** Opens every folded value of the page ("Show all"), so the longest form is measured too. */
export async function unfoldAll(page: Page): Promise<number> {
  const buttons = page.locator('.hex button[aria-expanded="false"]')
  const count = await buttons.count()
  for (let at = 0; at < count; at++) await buttons.first().click()
  return count
}

type Overview = { blocks: Array<{ number: number }>; topAccounts: Array<{ address: string; label: string | null }> }
type TxRow = { hash: string; method: string | null; to: string | null; created: string | null }

/** One path of every kind of page the explorer draws, from what the seeded dev stack holds. */
export async function everyPageKind(stack: PagesStack): Promise<PageKind[]> {
  const overview = await stack.api<Overview>('/overview')
  const txs = await stack.api<TxRow[]>('/txs?limit=100')
  const short = (hash: string) => `${hash.slice(0, 8)}…${hash.slice(-6)}`
  const txOf = (method: string) => {
    const found = txs.find((tx) => tx.method === method)
    if (!found) throw new Error(`no ${method} among the latest 100 transactions`)
    return found
  }
  const swap = txOf('swap')
  const v3 = txOf('exactInputSingle')
  const block = overview.blocks[0]!.number
  const eoa = overview.topAccounts.find((account) => account.label === null) ?? overview.topAccounts[0]!
  const eoaTitle = await stack.shownAs(eoa.address, eoa.label)
  const router = v3.to!
  const routerTitle = await stack.shownAs(router)
  // The router's creation: its whole init code as the input, folded.
  const creation = (await stack.api<{ creator: { txHash: string } | null }>(`/address/${router}`)).creator!.txHash
  const tokens = await stack.api<Array<{ address: string; name: string | null; symbol: string | null }>>('/tokens')
  const token = tokens.find((entry) => entry.name) ?? tokens[0]!
  const { nfts } = await stack.api<{ nfts: Array<{ address: string; name: string | null }> }>('/nfts')
  const collection = await stack.api<{ items: Array<{ tokenId: string }> }>(`/nft/${nfts[0]!.address}?limit=1`)
  const dex = async <T,>(path: string) => (await (await fetch(`${stack.origin}/dex${path}`)).json()) as T
  const pair = (await dex<{ pools: Array<{ pair: string }> }>('/pools')).pools[0]!.pair
  const pool = (await dex<{ pools: Array<{ pool: string }> }>('/cl/pools')).pools[0]!.pool
  return [
    { kind: 'home', path: '/', title: 'Chain 78270 explorer' },
    { kind: 'blocks', path: '/blocks', title: 'Blocks' },
    { kind: 'block', path: `/block/${block}`, title: `Block ${block.toLocaleString('en-US')}` },
    { kind: 'minis', path: '/minis', title: 'Mini-blocks' },
    { kind: 'mini', path: `/mini/${block}`, title: 'Mini-block' },
    { kind: 'txs', path: '/txs', title: 'Transactions' },
    { kind: 'tx', path: `/tx/${swap.hash}`, title: `Transaction ${short(swap.hash)}` },
    { kind: 'tx-v3-router', path: `/tx/${v3.hash}`, title: `Transaction ${short(v3.hash)}` },
    { kind: 'tx-creation', path: `/tx/${creation}`, title: `Transaction ${short(creation)}` },
    { kind: 'address-eoa', path: `/address/${eoa.address}`, title: eoaTitle },
    { kind: 'address-contract', path: `/address/${router}`, title: routerTitle },
    { kind: 'tokens', path: '/tokens', title: 'Tokens' },
    { kind: 'token', path: `/token/${token.address}`, title: token.name ?? token.symbol ?? token.address },
    { kind: 'nfts', path: '/nfts', title: 'NFT collections' },
    { kind: 'nft-collection', path: `/nft/${nfts[0]!.address}`, title: nfts[0]!.name ?? '' },
    { kind: 'nft', path: `/nft/${nfts[0]!.address}/${collection.items[0]!.tokenId}`, title: '' },
    { kind: 'accounts', path: '/accounts', title: 'Accounts' },
    { kind: 'fees', path: '/fees', title: 'Fee layer' },
    { kind: 'exchange', path: '/exchange', title: 'Exchange' },
    { kind: 'exchange-pair', path: `/exchange/pair/${pair}`, title: 'pair' },
    { kind: 'exchange-pool', path: `/exchange/pool/${pool}`, title: '%' },
    { kind: 'name', path: '/name/alice', title: 'alice' },
    { kind: '404', path: '/charts', title: 'No page here' },
  ]
}
