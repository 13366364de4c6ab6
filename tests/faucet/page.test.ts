import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Browser, Page } from 'playwright-core'
import { getAddress, parseEther, type Hash } from 'viem'
import { pollUntil } from '../../src/time/poll.ts'
import { faucetForFile, freshAddress, type FaucetChain, type FaucetUnderTest } from './helpers.ts'
import { launchChromium } from '../helpers/browser.ts'

let chain: FaucetChain
let service: FaucetUnderTest
let browser: Browser
let page: Page
faucetForFile((running) => ({ chain, service } = running))
beforeAll(async () => {
  browser = await launchChromium()
  page = await browser.newPage()
}, 30_000)
afterAll(async () => {
  await browser?.close()
})

/** The text of `selector` once it settles on `wanted` (the page fills it in asynchronously). */
async function expectText(selector: string, wanted: string, how: 'exact' | 'contains' = 'exact'): Promise<void> {
  const matches = (text: string) => (how === 'exact' ? text === wanted : text.includes(wanted))
  const read = async () => ((await page.locator(selector).textContent()) ?? '').trim()
  const { value: text, met } = await pollUntil(read, matches, { timeoutMs: 5000, intervalMs: 25 })
  if (met) return
  if (how === 'exact') expect(text).toBe(wanted)
  else expect(text).toContain(wanted)
}

describe('the faucet page', () => {
  test('shows the drip amounts, the cooldown and the treasury', async () => {
    const response = await page.goto(`${service.url}/`)
    expect(response?.status()).toBe(200)
    expect(response?.headers()['content-type']).toBe('text/html;charset=utf-8')
    expect(await page.title()).toBe('Faucet: free test funds')
    await expectText('#amounts', '1 ETH and 100 BX')
    await expectText('#cooldown', 'once every 24 hours per address')
    await expectText('#treasury', '100 ETH and 100,000 BX')
  })

  test('fill an address, press the button, see the transaction hash', async () => {
    const address = freshAddress()
    await page.getByLabel('Your account address').fill(address.toLowerCase())
    await expectText('#address-check', 'This address can receive a drip now.')
    await page.getByRole('button', { name: 'Send me test funds' }).click()
    const hash = page.locator('#tx-hash')
    await hash.waitFor({ timeout: 10_000 })
    const text = (await hash.textContent()) as Hash
    expect(text).toMatch(/^0x[0-9a-f]{64}$/)
    await expectText('#result', `on their way to ${getAddress(address)}`, 'contains')
    expect((await chain.clients.publicClient.getTransactionReceipt({ hash: text })).status).toBe('success')
    expect(await chain.ethBalance(address)).toBe(parseEther('1'))
    // The treasury on the page follows the drip.
    await expectText('#treasury', '99 ETH and 99,900 BX')
    await page.screenshot({ path: '/tmp/faucet-page-sent.png', fullPage: true })
  }, 20_000)

  test('a second drip for the same address is refused in plain words', async () => {
    await page.getByRole('button', { name: 'Send me test funds' }).click()
    await expectText('#result', 'This address already had a drip in the last day. It can have another in 24 hours.', 'contains')
    expect(await page.locator('#result').getAttribute('class')).toBe('result bad')
    await expectText('#address-check', 'It can have another in', 'contains')
  })

  test('a check answered after the drip was asked for is not shown; the address is checked again once the drip has its answer', async () => {
    // Each check of the address reaches the faucet at once, and its answer is held here until let go.
    const held: Array<() => Promise<void>> = []
    await page.route('**/status?address=*', async (route) => {
      const response = await route.fetch()
      held.push(() => route.fulfill({ response }))
    })
    const asked = async (count: number) => {
      const { value } = await pollUntil(() => held.length, (length) => length >= count, { timeoutMs: 5000, intervalMs: 25 })
      expect(value).toBe(count)
    }
    try {
      const address = freshAddress()
      await page.getByLabel('Your account address').fill(address)
      // The first check is answered before the drip: "can receive a drip now", stale once it is sent.
      await asked(1)
      // Every text the check shows from here on, kept in the page (its globals untyped here: the tests have no DOM types).
      await page.evaluate(() => {
        const { document, MutationObserver } = globalThis as any
        const check = document.getElementById('address-check')
        const shown: string[] = ((globalThis as any).shown = [])
        new MutationObserver(() => shown.push(check.textContent ?? '')).observe(check, { childList: true, characterData: true, subtree: true })
      })
      await page.getByRole('button', { name: 'Send me test funds' }).click()
      await page.locator('#tx-hash').waitFor({ timeout: 10_000 })
      await held[0]!()
      await asked(2)
      await held[1]!()
      await expectText('#address-check', 'This address had a drip recently. It can have another in 24 hours.')
      const shown = await page.evaluate(() => (globalThis as any).shown as string[])
      expect(shown).not.toContain('This address can receive a drip now.')
    } finally {
      await page.unroute('**/status?address=*')
      for (const fulfil of held.splice(0)) await fulfil().catch(() => {})
    }
  }, 20_000)

  test('an address whose daily drips are spent is explained as it is typed, though its cooldown has run out', async () => {
    const address = freshAddress()
    expect((await service.drip(address)).status).toBe(200)
    await chain.advanceTime(86_401)
    expect((await service.drip(address)).status).toBe(200)
    await chain.advanceTime(86_401)
    await page.getByLabel('Your account address').fill(address)
    await expectText('#address-check', 'Limit reached: this address has had its 2 drips for today. The daily limits reset at 00:00 UTC.')
  })

  test('something that is not an address is explained before anything is sent', async () => {
    await page.getByLabel('Your account address').fill('0x1234')
    await expectText('#address-check', 'This does not look like an address yet.')
    await page.getByRole('button', { name: 'Send me test funds' }).click()
    await expectText('#result', 'That is not a valid address.', 'contains')
    await page.screenshot({ path: '/tmp/faucet-page-refused.png', fullPage: true })
  })

  test('the page files come from the allowlist with a content security policy', async () => {
    for (const [path, type] of [
      ['/index.html', 'text/html'],
      ['/faucet.js', 'text/javascript'],
      ['/faucet.css', 'text/css'],
    ]) {
      const response = await fetch(`${service.url}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(`${type};charset=utf-8`)
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})
