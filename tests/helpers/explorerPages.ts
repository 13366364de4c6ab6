import { afterAll, beforeAll } from 'bun:test'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { pollUntil } from '../../src/time/poll.ts'
import { launchChromium } from './browser.ts'
import { ROOT } from './stack.ts'
import { startSeededDevStack, type SeededDevStack } from './seededDevStack.ts'
import { atTestRunEnd } from './testEnd.ts'

// The explorer's pages in a real browser against `stack dev`: one dev stack and one Chromium for
// every page test of the run (each file asks for them; the first starts them), stopped once the
// whole run is over. Screenshots go to test-artifacts/screenshots, which CI keeps.

export const SCREENSHOTS = join(ROOT, 'test-artifacts', 'screenshots')

export type PagesStack = SeededDevStack & {
  browser: Browser
  /** How the pages print an address cut short: its tag label, else its pair's or pool's name, else the name it goes by, else its first characters (`label` when the row carries one). */
  shownAs: (address: string, label?: string | null) => Promise<string>
}

let shared: Promise<PagesStack> | null = null

export function pagesStack(): Promise<PagesStack> {
  shared ??= (async () => {
    // The tests browse like many people at once from one address: the API's minute is not what they test (limits.test.ts does).
    const { stack, dir, origin, api } = await startSeededDevStack(100_000)
    atTestRunEnd(() => stack.stop())
    const browser = await launchChromium()
    atTestRunEnd(() => browser.close())
    const shownAs = async (address: string, label?: string | null) => {
      if (label) return label
      const { names, labels, pools } = await api<{ names: Record<string, string | null>; labels: Record<string, string | null>; pools: Record<string, string | null> }>(`/names?address=${address}`)
      return Object.values(labels)[0] ?? Object.values(pools)[0] ?? Object.values(names)[0] ?? address.slice(0, 8)
    }
    return { stack, dir, browser, origin, api, shownAs }
  })()
  return shared
}

/** A new page that records every script error and failed request it meets. */
export async function openPage(browser: Browser, options: { width?: number; height?: number; dark?: boolean } = {}) {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 }, colorScheme: options.dark ? 'dark' : 'light' })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`script error: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`)
  })
  // A request the page itself gave up as it moved on (the live stats' stream) is not a failure.
  page.on('requestfailed', (request) => {
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`request failed: ${request.url()} (${request.failure()?.errorText})`)
  })
  return { page, errors, close: () => context.close() }
}

/**
 * The shared stack and a page of one file's own: opened before its tests (handed to `opened`),
 * closed after them.
 */
export function pageForFile(opened: (shared: { stack: PagesStack; page: Page; errors: string[] }) => void): void {
  let close: (() => Promise<void>) | undefined
  beforeAll(async () => {
    const stack = await pagesStack()
    const { page, errors, close: closePage } = await openPage(stack.browser)
    close = closePage
    opened({ stack, page, errors })
  }, 90_000)
  afterAll(async () => {
    await close?.()
  })
}

/** Waits until `selector`'s text contains `wanted` (the pages fill in as their answers arrive). */
export async function expectText(page: Page, selector: string, wanted: string, timeoutMs = 10_000): Promise<void> {
  const locator = page.locator(selector).first()
  const read = async () => ((await locator.textContent().catch(() => null)) ?? '').replace(/\s+/g, ' ').trim()
  const { value: text, met } = await pollUntil(read, (text) => text.includes(wanted), { timeoutMs, intervalMs: 50 })
  if (!met) throw new Error(`${selector} never read "${wanted}"; it read "${text.slice(0, 300)}"`)
}

/** Keeps a screenshot of the whole page under test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}
