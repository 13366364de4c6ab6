import { describe, expect, test } from 'bun:test'
import { expectText, openPage, pagesStack, screenshot } from '../helpers/explorerPages.ts'
import { settled } from '../helpers/pageChecks.ts'

// The explorer's pages when something is not there: a path that is no page, a block or
// transaction the index has not reached, an API that does not answer, a live stream that drops.
// Each says what it is, in a card with a way on, and recovers once the thing is there.

/** The Accept of Chromium's navigation to a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8'
const grouped = (value: number) => value.toLocaleString('en-US')

describe('a path that is no page', () => {
  test("a browser's navigation gets the 404 page; any other client and every /api/ path the JSON 404", async () => {
    const stack = await pagesStack()
    for (const path of ['/nothing', '/charts', '/pools', '/names', '/block']) {
      const response = await fetch(`${stack.origin}${path}`, { headers: { accept: BROWSER_ACCEPT } })
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 404, 'text/html;charset=utf-8'])
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(await response.text()).toContain('<script type="module" src="/app.js">')
    }
    for (const [path, accept] of [['/nothing', null], ['/nothing', 'application/json'], ['/nothing', '*/*'], ['/api/nothing', BROWSER_ACCEPT], ['/dex/nothing', BROWSER_ACCEPT]] as Array<[string, string | null]>) {
      const response = await fetch(`${stack.origin}${path}`, accept === null ? {} : { headers: { accept } })
      expect([path, accept, response.status, response.headers.get('content-type')]).toEqual([path, accept, 404, 'application/json;charset=utf-8'])
      expect(await response.json()).toEqual({ error: 'not found' })
    }
    // A method other than GET stays the JSON of the read-only API.
    const posted = await fetch(`${stack.origin}/nothing`, { method: 'POST', headers: { accept: BROWSER_ACCEPT } })
    expect(posted.status).toBe(405)
    expect(posted.headers.get('content-type')).toBe('application/json;charset=utf-8')
  })

  test('the 404 page: the header and search, what is not there, the ways on', async () => {
    const stack = await pagesStack()
    const { page, close } = await openPage(stack.browser, { width: 390 })
    try {
      const response = await page.goto(`${stack.origin}/charts`)
      expect(response?.status()).toBe(404)
      await expectText(page, '#not-found h1', 'No page here')
      await expectText(page, '#not-found', '/charts')
      expect(await page.title()).toBe('No page here · Chain 78270 explorer')
      expect(await page.locator('header.top nav[aria-label=main] a').count()).toBeGreaterThan(3)
      await screenshot(page, 'not-found')
      // The search in the header takes the person on from here.
      const overview = await stack.api<{ blocks: Array<{ number: number }> }>('/overview')
      await page.locator('#search').fill(String(overview.blocks[0]!.number))
      await page.keyboard.press('Enter')
      await expectText(page, '#block h1', `Block ${grouped(overview.blocks[0]!.number)}`)
      // And so do its links.
      await page.goto(`${stack.origin}/pools`)
      await page.locator('#not-found').getByRole('link', { name: 'Transactions' }).click()
      await expectText(page, '#txs h1', 'Transactions')
    } finally {
      await close()
    }
  }, 60_000)
})

describe('not yet indexed', () => {
  test('a block past the index head says so, and draws once the index reaches it', async () => {
    const stack = await pagesStack()
    const { page, close } = await openPage(stack.browser)
    try {
      const { indexedBlock } = await stack.api<{ indexedBlock: number }>('/stats')
      // The dev chain makes a block a second: this one is a few seconds ahead.
      const ahead = indexedBlock + 6
      await page.goto(`${stack.origin}/block/${ahead}`)
      await expectText(page, '#failure h1', `Block ${grouped(ahead)} is not yet indexed`)
      await expectText(page, '#not-yet-indexed', 'The index has reached block')
      expect(await page.locator('#failure').getByRole('link', { name: 'Search' }).count()).toBe(1)
      await screenshot(page, 'block-not-yet-indexed')
      await expectText(page, '#block h1', `Block ${grouped(ahead)}`, 30_000)
      expect(await page.locator('#failure').count()).toBe(0)
    } finally {
      await close()
    }
  }, 60_000)

  test('an unknown transaction hash: not found, perhaps not yet indexed, with a way on', async () => {
    const stack = await pagesStack()
    const { page, close } = await openPage(stack.browser)
    try {
      await page.goto(`${stack.origin}/tx/0x${'ab'.repeat(32)}`)
      await expectText(page, '#failure h1', 'No such transaction')
      await expectText(page, '#not-yet-indexed', 'not yet indexed')
      expect(await page.locator('#failure').getByRole('button', { name: 'Look again' }).count()).toBe(1)
      expect(await page.locator('#failure').getByRole('link', { name: 'Back to the chain' }).count()).toBe(1)
      expect(await page.locator('h1').count()).toBe(1)
    } finally {
      await close()
    }
  }, 60_000)
})

describe('failures said in words, with a retry', () => {
  test('a list whose API does not answer says so, offers a retry, and loads on it', async () => {
    const stack = await pagesStack()
    const { page, close } = await openPage(stack.browser, { width: 390 })
    try {
      let blocked = true
      await page.route((url) => url.pathname === '/api/txs', (route) => (blocked ? route.abort('connectionrefused') : route.fallback()))
      await page.goto(`${stack.origin}/txs`)
      await expectText(page, '#txs [role=alert]', 'The transactions could not be loaded: the explorer could not be reached.')
      const text = (await page.locator('main').textContent()) ?? ''
      expect(text).not.toContain('TypeError')
      expect(text).not.toContain('Failed to fetch')
      expect(await page.locator('#txs .pager').textContent()).not.toContain('none')
      await screenshot(page, 'txs-unreachable')
      blocked = false
      await page.locator('#txs').getByRole('button', { name: 'Try again' }).click()
      const latest = await stack.api<Array<{ hash: string }>>('/txs?limit=25')
      await expectText(page, '#txs tbody', latest.at(-1)!.hash.slice(0, 8))
      expect(await page.locator('#txs [role=alert]').count()).toBe(0)
    } finally {
      await close()
    }
  }, 60_000)

  test('a page whose API does not answer is a card with its h1, a retry and the search', async () => {
    const stack = await pagesStack()
    const { page, close } = await openPage(stack.browser)
    try {
      const overview = await stack.api<{ blocks: Array<{ number: number }> }>('/overview')
      const number = overview.blocks[0]!.number
      let blocked = true
      await page.route((url) => url.pathname === `/api/block/${number}`, (route) => (blocked ? route.abort('connectionrefused') : route.fallback()))
      await page.goto(`${stack.origin}/block/${number}`)
      await expectText(page, '#failure h1', 'The block could not be loaded')
      await expectText(page, '#failure', 'the explorer could not be reached')
      blocked = false
      await page.locator('#failure').getByRole('button', { name: 'Try again' }).click()
      await expectText(page, '#block h1', `Block ${grouped(number)}`)
    } finally {
      await close()
    }
  }, 60_000)
})

describe('the live stream', () => {
  test('a dropped stream is said ("reconnecting"), the figures wait, and catch up once it is back', async () => {
    const stack = await pagesStack()
    const { page, close } = await openPage(stack.browser, { width: 390 })
    try {
      const stats = await stack.api<{ latestBlock: number }>('/stats')
      // The first stream gives one frame of the stats as they are and ends (a drop); every
      // attempt after it is refused while `blocked`, then goes through to the explorer.
      let streams = 0
      let blocked = true
      await page.route((url) => url.pathname === '/api/live', async (route) => {
        streams++
        if (streams === 1) return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(stats)}\n\n` })
        return blocked ? route.abort('connectionrefused') : route.fallback()
      })
      await page.goto(`${stack.origin}/`)
      await expectText(page, '#live-status', 'Live updates lost: reconnecting')
      await screenshot(page, 'home-reconnecting')
      // The chain moves on meanwhile; the page's latest block stays where the stream left it.
      await Bun.sleep(2500)
      expect(await page.locator('#stat-latest-block dd').textContent()).toBe(grouped(stats.latestBlock))
      expect(streams).toBeGreaterThan(2)
      blocked = false
      const now = await stack.api<{ latestBlock: number }>('/stats')
      expect(now.latestBlock).toBeGreaterThan(stats.latestBlock)
      await page.waitForFunction(() => (globalThis as any).document.querySelector('#live-status') === null, undefined, { timeout: 15_000 })
      const latest = (head: number) => Number((globalThis as any).document.querySelector('#stat-latest-block dd').textContent.replace(/,/g, '')) >= head
      await page.waitForFunction(latest, now.latestBlock, { timeout: 15_000 })
    } finally {
      await close()
    }
  }, 60_000)

  test('the server ending a stream, as it does after a while, is not a drop', async () => {
    const stack = await pagesStack()
    const { page, close } = await openPage(stack.browser)
    try {
      let streams = 0
      // Each stream ends after one frame, as the server's does after its time: the page opens
      // the next at once and says nothing.
      await page.route((url) => url.pathname === '/api/live', async (route) => {
        streams++
        const stats = await stack.api('/stats')
        return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `data: ${JSON.stringify(stats)}\n\n` })
      })
      await page.goto(`${stack.origin}/`)
      await settled(page)
      const seen = await page.evaluate(async () => {
        const { document } = globalThis as any
        let shown = false
        const end = Date.now() + 3000
        while (Date.now() < end) {
          shown ||= document.querySelector('#live-status') !== null
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
        return shown
      })
      expect(seen).toBe(false)
      expect(streams).toBeGreaterThan(2)
    } finally {
      await close()
    }
  }, 60_000)
})
