import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { expectText, openPage, pagesStack, screenshot, type PagesStack } from '../helpers/explorerPages.ts'

// The header's search box in Chromium against `stack dev`, by keyboard alone, on a phone and a
// laptop, light and dark: suggestions grouped by kind as one types, arrows through them, Enter on
// the chosen one, Enter on an exact match, Enter on a query naming several (the results page),
// Escape. The input is an ARIA combobox and its list a listbox.

type Result = { kind: string; title: string; detail: string | null; address: string | null; href: string; listed: boolean | null }
type Answer = { query: string; go: string | null; results: Result[] }

let stack: PagesStack
beforeAll(async () => {
  stack = await pagesStack()
}, 90_000)

const BOX = '#search'
const LIST = '#search-suggestions'

for (const [width, dark] of [
  [390, false],
  [1280, false],
  [390, true],
  [1280, true],
] as const) {
  describe(`the search box at ${width} px, ${dark ? 'dark' : 'light'}`, () => {
    let page: Page
    let errors: string[]
    let close: () => Promise<void>
    beforeAll(async () => {
      ;({ page, errors, close } = await openPage(stack.browser, { width, dark }))
    })
    afterAll(() => close())
    const name = (what: string) => `search-${what}-${width}${dark ? '-dark' : ''}`

    /** Focuses the box with the keyboard (Tab from the top of the page) and types `text`. */
    const typeInBox = async (text: string) => {
      await page.goto(`${stack.origin}/`)
      await page.locator(BOX).waitFor()
      for (let tab = 0; tab < 20; tab++) {
        await page.keyboard.press('Tab')
        if (await page.evaluate(`document.activeElement?.id === 'search'`)) break
      }
      expect(await page.evaluate(`document.activeElement?.id`)).toBe('search')
      await page.keyboard.type(text, { delay: 20 })
    }
    const expanded = () => page.locator(BOX).getAttribute('aria-expanded')
    const options = () => page.locator(`${LIST} [role=option]`)

    test('suggestions as one types, grouped by kind; arrows choose, Enter opens the chosen one', async () => {
      const answer = await stack.api<Answer>('/search?q=bx&limit=8')
      await typeInBox('bx')
      await page.locator(`${LIST} [role=option]`).first().waitFor()
      expect(await expanded()).toBe('true')
      expect(await page.locator(BOX).getAttribute('role')).toBe('combobox')
      expect(await page.locator(LIST).getAttribute('role')).toBe('listbox')
      expect(await options().count()).toBe(answer.results.length)
      expect(answer.results.length).toBeLessThanOrEqual(8)
      // Grouped: the tokens' heading before the pairs'.
      const headings = await page.locator(`${LIST} .suggestion-group`).allTextContents()
      expect(headings.indexOf('Tokens')).toBeLessThan(headings.indexOf('Pairs'))
      await expectText(page, `${LIST} [role=option]`, 'BX')
      await expectText(page, `${LIST} .badge.listed`, 'Listed')
      await screenshot(page, name('suggestions'))
      // Down twice: the second option is the active descendant, then Up: the first.
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      const second = await options().nth(1).getAttribute('id')
      expect(await page.locator(BOX).getAttribute('aria-activedescendant')).toBe(second)
      expect(await options().nth(1).getAttribute('aria-selected')).toBe('true')
      await page.keyboard.press('ArrowUp')
      const first = options().first()
      expect(await page.locator(BOX).getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'))
      const title = (await first.locator('.result-title').textContent())!
      const target = answer.results.find((result) => result.title === title)!
      await page.keyboard.press('Enter')
      await page.waitForURL(`${stack.origin}${target.href}`)
      expect(errors).toEqual([])
    })

    test('Escape closes the suggestions; Enter on an exact match goes straight to its page', async () => {
      const moon = await stack.api<Answer>('/search?q=MOON')
      expect(moon.go).not.toBeNull()
      await typeInBox('MOON')
      await page.locator(`${LIST} [role=option]`).first().waitFor()
      await expectText(page, `${LIST} .badge.unlisted`, 'Unlisted')
      await page.keyboard.press('Escape')
      expect(await expanded()).toBe('false')
      expect(await page.locator(LIST).isHidden()).toBe(true)
      await page.keyboard.press('Enter')
      await page.waitForURL(`${stack.origin}${moon.go}`)
      for (const [text, go] of [
        ['Faucet', (await stack.api<Answer>('/search?q=Faucet')).go],
        ['Wrapped Ether', (await stack.api<Answer>('/search?q=Wrapped%20Ether')).go],
      ] as const) {
        expect(go).not.toBeNull()
        await typeInBox(text)
        await page.keyboard.press('Enter')
        await page.waitForURL(`${stack.origin}${go}`)
      }
      expect(errors).toEqual([])
    })

    test('Enter on a query that names several: the results page lists every kind', async () => {
      const answer = await stack.api<Answer>('/search?q=BX%2FWETH&limit=50')
      expect(answer.go).toBeNull()
      await typeInBox('BX/WETH')
      await page.locator(`${LIST} [role=option]`).first().waitFor()
      await page.keyboard.press('Enter')
      await page.waitForURL(`${stack.origin}/search?q=BX%2FWETH`)
      await expectText(page, '#search-results h1', 'Search: BX/WETH')
      await expectText(page, '#results-pair', 'Pairs')
      await expectText(page, '#results-pool', 'Pools')
      for (const result of answer.results) expect(await page.locator(`#search-results a[href="${result.href}"]`).count()).toBe(1)
      // No page wider than the screen.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width)
      await screenshot(page, name('results'))
      // A query that names nothing says so.
      await typeInBox('zzqqxx')
      await page.keyboard.press('Enter')
      await expectText(page, '#search-none', 'Nothing found')
      expect(errors).toEqual([])
    })
  })
}
