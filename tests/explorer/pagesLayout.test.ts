import { beforeAll, describe, expect, test } from 'bun:test'
import { answersSettled, countFetches, everyPageKind, headings, lowContrast, overflow, settled, unfoldAll, type LowContrast, type PageKind } from '../helpers/pageChecks.ts'
import { openPage, pagesStack, screenshot, type PagesStack } from '../helpers/explorerPages.ts'

// Every kind of explorer page in Chromium, at a phone's width and a laptop's, light and dark:
// no page is wider than its viewport (folded values unfolded too), each has one h1 and a tab
// title of its own, and every text reads at 4.5:1 against what is behind it (3:1 when large).

const SITE = 'Chain 78270 explorer'

let stack: PagesStack
let kinds: PageKind[]

beforeAll(async () => {
  stack = await pagesStack()
  kinds = await everyPageKind(stack)
}, 120_000)

const views = [
  { width: 390, dark: false },
  { width: 390, dark: true },
  { width: 1280, dark: false },
  { width: 1280, dark: true },
]

describe('every page kind fits, is titled and reads', () => {
  for (const view of views) {
    const scheme = view.dark ? 'dark' : 'light'
    test(`at ${view.width} px, ${scheme}`, async () => {
      const { page, errors, close } = await openPage(stack.browser, { width: view.width, height: 900, dark: view.dark })
      await countFetches(page)
      const wide: string[] = []
      const titles: string[] = []
      const low: Array<LowContrast & { page: string }> = []
      try {
        for (const { kind, path, title } of kinds) {
          const response = await page.goto(`${stack.origin}${path}`)
          expect([kind, response?.status()]).toEqual([kind, kind === '404' ? 404 : 200])
          await settled(page)
          // The names of the addresses a page draws arrive after its answers.
          await answersSettled(page)
          await screenshot(page, `layout-${kind}-${view.width}-${scheme}`)
          const unfolded = await unfoldAll(page)
          for (const [state, extra] of [['drawn', await overflow(page)], ...(unfolded > 0 ? [['unfolded', await overflow(page)]] : [])] as Array<[string, number]>) {
            if (extra > 0) wide.push(`${kind} (${state}) is ${extra} px wider than the viewport`)
          }
          if (kind === 'tx-creation') expect(unfolded).toBeGreaterThan(0)
          if (unfolded > 0) await screenshot(page, `layout-${kind}-${view.width}-${scheme}-unfolded`)
          const { h1, title: tab } = await headings(page)
          if (h1.length !== 1) titles.push(`${kind} has ${h1.length} h1: ${JSON.stringify(h1)}`)
          if (kind === 'home' ? tab !== SITE : tab === SITE || !tab.endsWith(` · ${SITE}`) || !tab.includes(title)) titles.push(`${kind}'s title is "${tab}", wanted "${title}"`)
          for (const text of await lowContrast(page)) low.push({ page: kind, ...text })
        }
        expect({ wide, titles, low }).toEqual({ wide: [], titles: [], low: [] })
        // The 404 page's own document is the one answer the browser reports as failed.
        expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 404 (Not Found)'])
      } finally {
        await close()
      }
    }, 300_000)
  }

  test('at 320 px, the narrowest phone, the widest pages still fit', async () => {
    const { page, close } = await openPage(stack.browser, { width: 320, height: 700 })
    try {
      for (const { kind, path } of kinds.filter((entry) => ['home', 'tx-v3-router', 'tx-creation', 'address-contract', 'exchange-pool', 'token'].includes(entry.kind))) {
        await page.goto(`${stack.origin}${path}`)
        await settled(page)
        await unfoldAll(page)
        expect([kind, await overflow(page)]).toEqual([kind, 0])
      }
    } finally {
      await close()
    }
  }, 120_000)
})

describe('the menu marks the section of the page', () => {
  test('a list page is the current page, a detail page is in its list, others in none', async () => {
    const { page, close } = await openPage(stack.browser)
    const current = () => page.locator('nav[aria-label=main] a[aria-current]').evaluateAll((links) => links.map((link) => `${link.textContent}=${link.getAttribute('aria-current')}`))
    try {
      const block = kinds.find((entry) => entry.kind === 'block')!.path
      const tx = kinds.find((entry) => entry.kind === 'tx')!.path
      for (const [path, wanted] of [
        ['/blocks', ['Blocks=page']],
        [block, ['Blocks=true']],
        ['/txs', ['Transactions=page']],
        [tx, ['Transactions=true']],
        ['/exchange', ['Exchange=page']],
        ['/', []],
        ['/name/alice', []],
      ] as Array<[string, string[]]>) {
        await page.goto(`${stack.origin}${path}`)
        await settled(page)
        expect([path, await current()]).toEqual([path, wanted])
      }
      // Moving by the menu moves the mark.
      await page.getByRole('link', { name: 'Tokens' }).click()
      await settled(page)
      expect(await current()).toEqual(['Tokens=page'])
    } finally {
      await close()
    }
  }, 60_000)
})
