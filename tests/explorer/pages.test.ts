import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { expectText, openPage, pageForFile, screenshot, type PagesStack } from '../helpers/explorerPages.ts'

// The explorer's pages in Chromium against `stack dev`: each page shows what the API says (the
// test reads the API and finds it on the page), the EIP-3091 paths and the search box lead where
// a wallet or a person expects, and no page meets a script error or a failed request.

let stack: PagesStack
let page: Page
let errors: string[]
pageForFile((shared) => ({ stack, page, errors } = shared))

type Overview = { stats: Record<string, number>; blocks: Array<{ number: number; txCount: number }>; txs: Array<{ hash: string; method: string | null; blockNumber: number }>; topAccounts: Array<{ address: string; label: string | null; txCount: number }> }

const grouped = (value: number) => value.toLocaleString('en-US')

describe('the explorer pages', () => {
  test('the home page: live stats, both charts, latest blocks and transactions, busiest accounts', async () => {
    const overview = await stack.api<Overview>('/overview')
    const response = await page.goto(`${stack.origin}/`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-type']).toBe('text/html;charset=utf-8')
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'")
    expect(await page.title()).toBe('Chain 78270 explorer')
    await expectText(page, '#stat-transactions dd', grouped(overview.stats.transactions!))
    await expectText(page, '#stat-wallets dd', grouped(overview.stats.wallets!))
    // The charts are drawn: a canvas in each.
    expect(await page.locator('#chart-txs canvas').count()).toBe(1)
    expect(await page.locator('#chart-gas canvas').count()).toBe(1)
    await expectText(page, '#latest-blocks tbody', grouped(overview.blocks[0]!.number))
    await expectText(page, '#latest-txs tbody', overview.txs[0]!.hash.slice(0, 8))
    // Each account by its tag label or, for the accounts of the seed, the name it goes by.
    for (const account of overview.topAccounts) await expectText(page, '#top-accounts tbody', await stack.shownAs(account.address, account.label))
    const named = await stack.api<{ names: Record<string, string | null> }>(`/names?address=${overview.topAccounts.map((account) => account.address).join(',')}`)
    expect(Object.values(named.names).filter((name) => name !== null).length).toBeGreaterThan(0)
    await screenshot(page, 'home')
    expect(errors).toEqual([])
  })

  test('the stats follow /api/live without a reload', async () => {
    await page.goto(`${stack.origin}/`)
    const first = await stack.api<{ latestBlock: number }>('/stats')
    // The dev chain makes a block a second; the live stream carries the new head.
    await expectText(page, '#stat-latest-block dd', grouped(first.latestBlock + 2), 15_000)
    expect(errors).toEqual([])
  })

  test('blocks, and a block with its transactions and mini-blocks', async () => {
    const overview = await stack.api<Overview>('/overview')
    const number = overview.blocks[0]!.number
    const block = await stack.api<{ hash: string; gasUsed: number; transactions: Array<{ hash: string }>; minis: Array<{ hash: string }> }>(`/block/${number}`)
    await page.goto(`${stack.origin}/blocks`)
    await expectText(page, '#blocks tbody', grouped((await stack.api<Array<{ number: number }>>('/blocks?limit=1'))[0]!.number - 3))
    await screenshot(page, 'blocks')
    // EIP-3091: /block/{number}.
    await page.goto(`${stack.origin}/block/${number}`)
    await expectText(page, '#block h1', `Block ${grouped(number)}`)
    await expectText(page, '#block', block.hash)
    await expectText(page, '#block', grouped(block.gasUsed))
    await expectText(page, '#block-txs tbody', block.transactions[0]!.hash.slice(0, 8))
    await expectText(page, '#block-minis tbody', block.minis[0]!.hash.slice(0, 8))
    await screenshot(page, 'block')
    // Its mini-block's link leads to the mini-block, and back.
    await page.locator('#block-minis tbody a').first().click()
    await expectText(page, '#mini', block.minis[0]!.hash)
    await page.goBack()
    await expectText(page, '#block h1', `Block ${grouped(number)}`)
    // The next block's link goes there.
    await page.getByRole('link', { name: `Block ${grouped(number + 1)} →` }).click()
    await expectText(page, '#block h1', `Block ${grouped(number + 1)}`)
    expect(new URL(page.url()).pathname).toBe(`/block/${number + 1}`)
    expect(errors).toEqual([])
  })

  test('a transaction: status, value, fee, decoded method and arguments, logs with labels and events, the call tree, token transfers', async () => {
    // A swap of the seed: a decoded method with arguments, logs, a call tree and token transfers.
    const txs = await stack.api<Array<{ hash: string; method: string | null }>>('/txs?limit=100')
    const swap = txs.find((tx) => tx.method === 'swap')!
    const tx = await stack.api<any>(`/tx/${swap.hash}`)
    await page.goto(`${stack.origin}/tx/${swap.hash}`)
    await expectText(page, '#tx', swap.hash)
    await expectText(page, '#tx-status', tx.success ? 'Success' : 'Failed')
    // The page's one h1 names the tab.
    expect(await page.locator('h1').allTextContents()).toEqual(['Transaction'])
    // Its tab is named by the transaction's short hash, to tell several open ones apart.
    await page.waitForFunction((title) => (globalThis as any).document.title === title, `Transaction ${swap.hash.slice(0, 8)}…${swap.hash.slice(-6)} · Chain 78270 explorer`)
    await expectText(page, '#tx-method', tx.decoded.signature)
    for (const arg of tx.decoded.args) await expectText(page, '#tx-input tbody', arg.name)
    for (const log of tx.logs) if (log.event) await expectText(page, '#tx-logs', log.event.name)
    const labelled = tx.logs.find((log: any) => log.label)
    if (labelled) await expectText(page, '#tx-logs', labelled.label.name)
    const transfer = tx.tokenTransfers[0]
    await expectText(page, '#tx-token-transfers', transfer.symbol)
    // The call tree: the top call, its inner calls folded open, and folded away on a press.
    const inner = tx.traces[0].calls.length
    expect(inner).toBeGreaterThan(0)
    await expectText(page, '#tx-trace', tx.traces[0].method ?? 'CALL')
    const before = await page.locator('#tx-trace li').count()
    await page.locator('#tx-trace button.fold').first().click()
    expect(await page.locator('#tx-trace li').count()).toBeLessThan(before)
    await page.locator('#tx-trace button.fold').first().click()
    expect(await page.locator('#tx-trace li').count()).toBe(before)
    await screenshot(page, 'tx')
    expect(errors).toEqual([])
  })

  test('an address: balance, nonce, label, name record, holdings, transactions with paging', async () => {
    // The treasury: a name record (treasury.bx), tokens, NFTs, many transactions.
    const overview = await stack.api<Overview>('/overview')
    const holder = overview.topAccounts[0]!.address
    const address = await stack.api<any>(`/address/${holder}`)
    // EIP-3091: /address/{address}, in any case.
    await page.goto(`${stack.origin}/address/${holder.toLowerCase()}`)
    await expectText(page, '#address-value', address.address)
    if (address.name) await expectText(page, '#address-name', address.name.name)
    await expectText(page, '#address-txs tbody', address.transactions[0].hash.slice(0, 8))
    if (address.tokens.length > 0) await expectText(page, '#address-tokens', address.tokens[0].symbol)
    // The NFTs it holds, each with the image its metadata carries: the seed's token URIs are all
    // data: URIs, which the address's answer resolves at once rather than on a later view.
    expect(address.nfts.length).toBeGreaterThan(0)
    expect(address.nfts.every((nft: any) => typeof nft.metadata?.image === 'string' && nft.metadata.image.startsWith('data:image/'))).toBe(true)
    await expectText(page, '#address-nfts', address.nfts[0].metadata.name)
    await page.waitForFunction(`document.querySelectorAll('#address-nfts img').length === ${address.nfts.length}`)
    await screenshot(page, 'address')
    if (address.counts.transactions > 25) {
      await page.getByRole('link', { name: 'Older →' }).click()
      const older = await stack.api<any>(`/address/${holder}?offset=25`)
      await expectText(page, '#address-txs tbody', older.transactions[0].hash.slice(0, 8))
    }
    expect(errors).toEqual([])
  })

  test('mini-blocks and a mini-block, the accounts by transactions, the fee layer', async () => {
    const minis = await stack.api<{ total: number; minis: Array<{ number: number; hash: string; blockNumber: number }> }>('/minis?limit=25&offset=5')
    await page.goto(`${stack.origin}/minis?offset=5`)
    await expectText(page, '#minis tbody', minis.minis[0]!.hash.slice(0, 8))
    const withTxs = (await stack.api<Overview>('/overview')).blocks[0]!.number
    const mini = await stack.api<{ hash: string; transactions: Array<{ hash: string }> }>(`/mini/${withTxs}`)
    await page.goto(`${stack.origin}/mini/${mini.hash}`)
    await expectText(page, '#mini', mini.hash)
    await expectText(page, '#mini-txs tbody', mini.transactions[0]!.hash.slice(0, 8))

    const accounts = await stack.api<{ total: number; accounts: Array<{ address: string; label: string | null; txCount: number }> }>('/accounts?limit=25')
    await page.goto(`${stack.origin}/`)
    await page.getByRole('link', { name: 'All accounts →' }).click()
    await expectText(page, '#accounts h1', grouped(accounts.total))
    const last = accounts.accounts.at(-1)!
    await expectText(page, '#accounts tbody', await stack.shownAs(last.address, last.label))
    await screenshot(page, 'accounts')

    const fees = await stack.api<{ deployed: boolean; received: { eth: string; count: number } }>('/fees')
    await page.goto(`${stack.origin}/fees`)
    if (fees.deployed) {
      await expectText(page, '#fees-received', `in ${grouped(fees.received.count)} payments`)
      await expectText(page, '#fees', 'burned')
    } else {
      await expectText(page, '#fees-absent', 'No fee router')
    }
    await screenshot(page, 'fees')
    expect(errors).toEqual([])
  })

  test('the search box takes a transaction hash, a block number, an address or a name', async () => {
    const overview = await stack.api<Overview>('/overview')
    const search = async (text: string) => {
      await page.goto(`${stack.origin}/`)
      await page.getByLabel('Search by transaction hash, block number, address or name').fill(text)
      await page.keyboard.press('Enter')
    }
    await search(overview.txs[0]!.hash)
    await expectText(page, '#tx', overview.txs[0]!.hash)
    await search(String(overview.blocks[0]!.number))
    await expectText(page, '#block h1', `Block ${grouped(overview.blocks[0]!.number)}`)
    await search(overview.topAccounts[0]!.address)
    await expectText(page, '#address-value', overview.topAccounts[0]!.address)
    const alice = await stack.api<{ name: string; resolved: string; price: string }>('/name/alice')
    await search('alice')
    await expectText(page, '#name', alice.name)
    await expectText(page, '#name', alice.resolved)
    // The yearly price is in BX, the native token, with its 18 decimals: 10 BX for five letters.
    await expectText(page, '#name-price', `${BigInt(alice.price) / 10n ** 18n} BX`)
    await screenshot(page, 'name')
    expect(errors).toEqual([])
  })

  test('every page path answers the page; anything else stays the JSON 404', async () => {
    const overview = await stack.api<Overview>('/overview')
    for (const path of ['/blocks', `/block/${overview.blocks[0]!.number}`, '/txs', `/tx/${overview.txs[0]!.hash}`, `/address/${overview.topAccounts[0]!.address}`, '/name/alice', '/minis', '/mini/1', '/accounts', '/fees']) {
      const response = await fetch(`${stack.origin}${path}`)
      expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 200, 'text/html;charset=utf-8'])
      expect(response.headers.get('cache-control')).toBe('no-store')
    }
    const missing = await fetch(`${stack.origin}/wp-admin`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'not found' })
    // An unknown transaction is said on the page, not left loading.
    await page.goto(`${stack.origin}/tx/0x${'00'.repeat(32)}`)
    await expectText(page, '[role=alert]', 'No such transaction')
    // The API's 404 is the only thing the browser complained of; the page is still the page.
    expect(errors).toEqual(['console: Failed to load resource: the server responded with a status of 404 (Not Found)'])
    errors.length = 0
  })

  test('the bundle is small, and the pages fetch nothing from elsewhere', async () => {
    const script = await (await fetch(`${stack.origin}/app.js`)).arrayBuffer()
    const style = await (await fetch(`${stack.origin}/app.css`)).arrayBuffer()
    const gzipped = Bun.gzipSync(new Uint8Array(script)).length + Bun.gzipSync(new Uint8Array(style)).length
    expect(gzipped).toBeLessThan(150 * 1024)
    const origins = new Set<string>()
    const { page: watched, close: done } = await openPage(stack.browser)
    watched.on('request', (request) => origins.add(new URL(request.url()).origin))
    await watched.goto(`${stack.origin}/`)
    await expectText(watched, '#latest-txs tbody', '0x')
    await done()
    expect([...origins]).toEqual([stack.origin])
  })

  test("the shell carries the chain head's time, so a page asks for its own data first", async () => {
    const before = (await stack.api<{ miniBlockHeadTimestamp_us: number }>('/stats')).miniBlockHeadTimestamp_us
    const shell = await (await fetch(`${stack.origin}/blocks`, { headers: { accept: 'text/html' } })).text()
    const clock = Number(/<meta name="chain-clock" content="(\d+)">/.exec(shell)?.[1])
    const after = (await stack.api<{ miniBlockHeadTimestamp_us: number }>('/stats')).miniBlockHeadTimestamp_us
    expect(clock).toBeGreaterThanOrEqual(before)
    expect(clock).toBeLessThanOrEqual(after)
    const asked: string[] = []
    const { page: watched, close: done } = await openPage(stack.browser)
    watched.on('request', (request) => {
      const path = new URL(request.url()).pathname
      if (path.startsWith('/api/')) asked.push(path)
    })
    await watched.goto(`${stack.origin}/`)
    await expectText(watched, '#latest-txs tbody', '0x')
    await done()
    expect(asked[0]).toBe('/api/overview')
  })

  test('the contract tabs and their libraries are a chunk loaded by the page of a verified contract alone', async () => {
    /** What the highlighter registers itself by, in the minified script as in the source. */
    const highlighter = 'registerLanguage'
    const scriptsOf = async (path: string, waitFor: string) => {
      const urls: string[] = []
      const { page: watched, close: done } = await openPage(stack.browser)
      watched.on('request', (request) => {
        if (request.resourceType() === 'script') urls.push(request.url())
      })
      await watched.goto(`${stack.origin}${path}`)
      await watched.waitForSelector(waitFor)
      await done()
      return Promise.all(urls.map(async (url) => ({ url, text: await (await fetch(url)).text() })))
    }
    const home = await scriptsOf('/', '#latest-txs tbody tr')
    expect(home.map((script) => new URL(script.url).pathname)).toContain('/app.js')
    // What the script imports at once is named in the shell, so it loads beside the script.
    const shell = await (await fetch(`${stack.origin}/`, { headers: { accept: 'text/html' } })).text()
    const preloaded = [...shell.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => match[1]!)
    const app = home.find((script) => new URL(script.url).pathname === '/app.js')!.text
    expect(preloaded.length).toBeGreaterThan(0)
    expect(preloaded.filter((path) => !home.some((script) => new URL(script.url).pathname === path))).toEqual([])
    for (const chunk of home.filter((script) => script.url !== `${stack.origin}/app.js`)) {
      const path = new URL(chunk.url).pathname
      expect(app).toContain(`"./${path.slice(1)}"`)
      expect(preloaded).toContain(path)
    }
    expect(home.filter((script) => script.text.includes(highlighter))).toEqual([])

    const weth = (await stack.api<Array<{ address: string; symbol: string }>>('/tokens')).find((token) => token.symbol === 'WETH')!
    const contract = await scriptsOf(`/address/${weth.address}`, '#contract-sources')
    const chunks = contract.filter((script) => script.text.includes(highlighter))
    expect(chunks).toHaveLength(1)
    expect(new URL(chunks[0]!.url).pathname).toMatch(/^\/chunk-[a-z0-9]+\.js$/)
    const served = await fetch(chunks[0]!.url)
    expect(served.headers.get('content-type')).toBe('text/javascript;charset=utf-8')
    expect(served.headers.get('content-security-policy')).toStartWith("default-src 'none'")
  })

  test('by keyboard alone: the skip link first, then the menu and the search; a call of the trace folds with Enter', async () => {
    const overview = await stack.api<Overview>('/overview')
    await page.goto(`${stack.origin}/`)
    await expectText(page, '#latest-txs tbody', overview.txs[0]!.hash.slice(0, 8))
    const focused = () => page.evaluate(`(() => { const e = document.activeElement; return e ? (e.getAttribute('aria-label') || e.textContent || e.id || e.tagName).trim() : '' })()`)
    const order: string[] = []
    for (let index = 0; index < 11; index++) {
      await page.keyboard.press('Tab')
      order.push(String(await focused()))
    }
    expect(order).toEqual(['Skip to the content', '◆ Chain 78270', 'Blocks', 'Transactions', 'Tokens', 'NFTs', 'Accounts', 'Fees', 'Exchange', 'search', 'Search'])
    // The skip link leads past the menu: the next Tab is inside the page's content.
    await page.goto(`${stack.origin}/`)
    await expectText(page, '#latest-txs tbody', overview.txs[0]!.hash.slice(0, 8))
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(`document.activeElement.closest('main') !== null`)).toBe(true)
    // The call tree's fold is a button: reached by Tab, pressed with Enter.
    const swap = (await stack.api<Array<{ hash: string; method: string | null }>>('/txs?limit=100')).find((tx) => tx.method === 'swap')!
    await page.goto(`${stack.origin}/tx/${swap.hash}`)
    await expectText(page, '#tx-trace', 'CALL')
    const before = await page.locator('#tx-trace li').count()
    for (let index = 0; index < 200 && !(await page.evaluate(`document.activeElement.matches('#tx-trace button.fold')`)); index++) await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    expect(await page.locator('#tx-trace li').count()).toBeLessThan(before)
    expect(errors).toEqual([])
  })

  test('a phone width and the dark scheme', async () => {
    const overview = await stack.api<Overview>('/overview')
    const phone = await openPage(stack.browser, { width: 390, height: 844, dark: true })
    await phone.page.goto(`${stack.origin}/`)
    await expectText(phone.page, '#latest-txs tbody', overview.txs[0]!.hash.slice(0, 8))
    // Nothing wider than the screen but the tables' own scrolling boxes.
    expect(await phone.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390)
    expect(await phone.page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(15, 18, 23)')
    await screenshot(phone.page, 'home-phone-dark')
    await phone.page.goto(`${stack.origin}/tx/${overview.txs[0]!.hash}`)
    await expectText(phone.page, '#tx', overview.txs[0]!.hash)
    await screenshot(phone.page, 'tx-phone-dark')
    expect(phone.errors).toEqual([])
    await phone.close()
  })
})
