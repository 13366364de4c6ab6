import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { join } from 'node:path'
import { expectText, openPage, pageForFile, screenshot, SCREENSHOTS, type PagesStack } from '../helpers/explorerPages.ts'

// An address's lists as tabs (an account and a token contract), a token's holders and transfers,
// the exchange's pairs named in lists, and the CSV download, in Chromium against `stack dev`, at
// a phone's width and a laptop's, light and dark.

let stack: PagesStack
let page: Page
let errors: string[]
pageForFile((shared) => ({ stack, page, errors } = shared))

type Token = { address: string; symbol: string | null; pool: string | null }
const alice = devAccounts.alice.address

const bx = async () => (await stack.api<Token[]>('/tokens')).find((token) => token.symbol === 'BX')!

/** Nothing on the page is wider than the viewport. */
async function fits(page: Page) {
  const { scroll, viewport } = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, viewport: window.innerWidth })')) as { scroll: number; viewport: number }
  expect(scroll).toBeLessThanOrEqual(viewport)
}

/** The rows of the open tab's table, once drawn. */
const rows = (page: Page, panel: string) => page.locator(`#panel-${panel} tbody tr`)

describe("an address's tabs", () => {
  test('an account: transactions with age, fee and in/out; token, NFT and internal transfers each a tab of its own', async () => {
    const { total } = await stack.api<{ total: number }>(`/address/${alice}/transactions`)
    await page.goto(`${stack.origin}/address/${alice}`)
    await expectText(page, '#list-transactions', 'Transactions')
    await expectText(page, '#panel-transactions thead', 'Fee')
    await expectText(page, '#panel-transactions thead', 'Age')
    expect(await rows(page, 'transactions').count()).toBe(Math.min(25, total))
    const badges = await page.locator('#panel-transactions .badge.dir').allTextContents()
    expect(badges.length).toBe(Math.min(25, total))
    expect(badges.every((text) => ['in', 'out', 'self'].includes(text))).toBe(true)
    await expectText(page, '#panel-transactions tbody', 'ago')
    await expectText(page, '#panel-transactions tbody', 'ETH')

    // A tab of its own: its own route, its own pager.
    await page.locator('#list-token-transfers').click()
    await expectText(page, '#panel-token-transfers tbody', 'BX')
    expect(new URL(page.url()).searchParams.get('list')).toBe('token-transfers')
    await page.locator('#list-nft-transfers').click()
    await expectText(page, '#panel-nft-transfers tbody', '#')
    const { calls } = await stack.api<{ calls: Array<{ txHash: string }> }>(`/address/${alice}/internal`)
    await page.locator('#list-internal').click()
    if (calls.length > 0) await expectText(page, '#panel-internal tbody', calls[0]!.txHash.slice(0, 8))
    else await expectText(page, '#panel-internal', 'No internal transactions.')
    expect(errors).toEqual([])
  })

  test('each tab pages on its own', async () => {
    const { transfers } = await stack.api<{ transfers: Array<{ txHash: string }> }>(`/address/${alice}/token-transfers?limit=50`)
    expect(transfers.length).toBeGreaterThan(25)
    await page.goto(`${stack.origin}/address/${alice}?list=token-transfers`)
    await expectText(page, '#panel-token-transfers .pager', '1–25')
    await page.locator('#panel-token-transfers .pager a', { hasText: 'Older' }).click()
    await expectText(page, '#panel-token-transfers .pager', '26–')
    const first = await page.locator('#panel-token-transfers tbody tr a[href^="/tx/"]').first().getAttribute('href')
    expect(first).toBe(`/tx/${transfers[25]!.txHash}`)
    // The transactions tab starts at its own first page.
    await page.locator('#list-transactions').click()
    await expectText(page, '#panel-transactions .pager', '1–')
    expect(errors).toEqual([])
  })

  test("a token contract's address page links to its token page, whose holders and transfers are tabs", async () => {
    const token = await bx()
    // Its own tabs first: the calls to it, with their age and fee.
    const { transactions } = await stack.api<{ transactions: Array<{ hash: string; direction: string }> }>(`/address/${token.address}/transactions`)
    await page.goto(`${stack.origin}/address/${token.address}`)
    await expectText(page, '#panel-transactions tbody', transactions[0]!.hash.slice(0, 8))
    expect(transactions.every((tx) => tx.direction === 'in')).toBe(true)
    await page.locator('#address-token').click()
    await expectText(page, '#token-title', 'BX')
    expect(new URL(page.url()).pathname).toBe(`/token/${token.address}`)
    const { holders } = await stack.api<{ holders: Array<{ address: string }> }>(`/token/${token.address}/holders`)
    await expectText(page, '#panel-holders tbody', '%')
    expect(await rows(page, 'holders').count()).toBe(holders.length)
    expect(await page.locator('#panel-holders tbody tr').first().getAttribute('data-address')).toBe(holders[0]!.address)
    // The pair holds BX: named by its tokens, not its address.
    await expectText(page, '#panel-holders tbody', 'BX/WETH · V2')
    await page.locator('#list-transfers').click()
    await expectText(page, '#panel-transfers .pager', '1–25')
    await expectText(page, '#panel-transfers tbody', 'ago')
    // The pairs and pools that trade it.
    await expectText(page, '#token-pools', 'BX/WETH · 0.3% · V3')
    await screenshot(page, 'token-holders-1280-light')
    expect(errors).toEqual([])
  })
})

describe('the names of pairs and pools', () => {
  test('in transaction lists and on /tokens, where six liquidity tokens looked alike', async () => {
    // A swap sent straight to a pair: the transactions list names the pair, as the index knows it.
    const { transactions } = await stack.api<{ transactions: Array<{ to: string | null; toLabel: string | null }> }>(`/address/${alice}/transactions?limit=25`)
    const { pools } = await stack.api<{ pools: Record<string, string | null> }>(`/names?address=${transactions.flatMap((tx) => (tx.to && !tx.toLabel ? [tx.to] : [])).join(',')}`)
    const pair = Object.values(pools).find((name) => name !== null)
    expect(pair).toMatch(/^\S+\/\S+ · (V2|[\d.]+% · V3)$/)
    await page.goto(`${stack.origin}/address/${alice}`)
    await expectText(page, '#panel-transactions tbody', pair!)
    await page.goto(`${stack.origin}/address/${alice}?list=token-transfers`)
    await expectText(page, '#panel-token-transfers tbody', '· V2')
    const tokens = await stack.api<Token[]>('/tokens')
    const lps = tokens.filter((token) => token.pool !== null)
    expect(lps.length).toBeGreaterThan(1)
    await page.goto(`${stack.origin}/tokens`)
    for (const lp of lps) await expectText(page, `#tokens tr[data-address="${lp.address}"] .pool-name`, lp.pool!)
    await page.goto(`${stack.origin}/address/${alice}`)
    const held = (await stack.api<{ tokens: Array<{ token: string; pool: string | null }> }>(`/address/${alice}`)).tokens.find((token) => token.pool)
    if (held) await expectText(page, `#address-tokens tr[data-token="${held.token}"]`, held.pool!)
    expect(errors).toEqual([])
  })
})

describe('the CSV download', () => {
  test("the address page's link downloads its transactions, the page's rows", async () => {
    const { total, transactions } = await stack.api<{ total: number; transactions: Array<{ hash: string }> }>(`/address/${alice}/transactions?limit=100`)
    await page.goto(`${stack.origin}/address/${alice}`)
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#csv-all').click()])
    expect(download.suggestedFilename()).toBe(`${alice}-transactions.csv`)
    const lines = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n')
    expect(lines[0]!.startsWith('Transaction,Block,Time (UTC)')).toBe(true)
    expect(lines.length - 1).toBe(total)
    expect(lines.slice(1, 1 + transactions.length).map((line) => line.split(',')[0])).toEqual(transactions.map((tx) => tx.hash))
    expect(errors).toEqual([])
  })
})

describe('at a phone\'s width and a laptop\'s, light and dark', () => {
  for (const [width, dark] of [
    [390, false],
    [390, true],
    [1280, false],
    [1280, true],
  ] as const) {
    test(`${width} px, ${dark ? 'dark' : 'light'}: the tabs and the token page fit`, async () => {
      const { page, errors, close } = await openPage(stack.browser, { width, height: 844, dark })
      try {
        const token = await bx()
        const name = `${width}-${dark ? 'dark' : 'light'}`
        for (const list of ['transactions', 'token-transfers', 'nft-transfers', 'internal']) {
          await page.goto(`${stack.origin}/address/${alice}?list=${list}`)
          // Drawn: the address's card, and the tab's rows or its empty line (not its loading line).
          await page.locator('#address-value').waitFor()
          await page.locator(`#panel-${list} tbody tr, #panel-${list} p.muted:not([role=status])`).first().waitFor()
          await fits(page)
          if (list === 'transactions' || list === 'token-transfers') await screenshot(page, `address-${list}-${name}`)
          // The card alone, for the manual's pictures.
          if (list === 'transactions') await page.locator('#address-lists').screenshot({ path: join(SCREENSHOTS, `address-lists-${name}.png`) })
        }
        await page.goto(`${stack.origin}/address/${token.address}`)
        await page.locator('#address-token').waitFor()
        await page.locator('#panel-transactions tbody tr').first().waitFor()
        await fits(page)
        await screenshot(page, `address-token-contract-${name}`)
        for (const list of ['holders', 'transfers']) {
          await page.goto(`${stack.origin}/token/${token.address}?list=${list}`)
          await page.locator(`#panel-${list} tbody tr`).first().waitFor()
          await page.locator('#token-pools li').first().waitFor()
          await fits(page)
          await screenshot(page, `token-${list}-${name}`)
          if (list === 'holders') await page.locator('#token-lists').screenshot({ path: join(SCREENSHOTS, `token-lists-${name}.png`) })
        }
        expect(errors).toEqual([])
      } finally {
        await close()
      }
    })
  }
})
