// bench:pages: how long the explorer's pages take to show the chain in a real browser, against
// the same pages served by a bare Bun.serve in the same run.
//
// `stack dev` runs with its seeded chain; Debian's Chromium (as the browser tests drive it)
// opens each page in a new browser context, so nothing is cached, and the time is from the
// navigation to the page's first rows of data on screen. The ceiling serves the very bytes the
// stack gave for the same page (the shell, the script, the style and each API answer the page
// asked for, recorded once), so the ratio is what the stack's own answering costs a person
// opening a page. The live stats stream stays open and is left out of the ceiling; the pages
// draw without it.
//
//   bun run bench:pages [loads per page]
import { rmSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { launchChromium } from '../tests/helpers/browser.ts'
import { startSeededDevStack } from '../tests/helpers/seededDevStack.ts'
import { atExit, fmt, printTable, record, summarize, withCeiling } from './harness.ts'

const LOADS = Number(process.argv[2] ?? 20)

type PageCase = { name: string; path: string; ready: string }

/** Milliseconds from a navigation in a fresh context to `ready` on screen. */
async function loadTimes(browser: Browser, base: string, page: PageCase, loads: number): Promise<number[]> {
  const times: number[] = []
  for (let index = 0; index < loads; index++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const tab = await context.newPage()
    const started = performance.now()
    await tab.goto(`${base}${page.path}`, { waitUntil: 'commit' })
    await tab.locator(page.ready).first().waitFor({ state: 'visible', timeout: 10_000 })
    times.push(performance.now() - started)
    await context.close()
  }
  return times
}

/** The paths a page asks of its origin as it draws (the live stream aside), once it shows `ready`. */
async function pathsOf(browser: Browser, base: string, page: PageCase): Promise<string[]> {
  const context = await browser.newContext()
  const tab = await context.newPage()
  const paths: string[] = []
  tab.on('request', (request) => {
    const url = new URL(request.url())
    if (url.origin === base && url.pathname !== '/api/live') paths.push(`${url.pathname}${url.search}`)
  })
  await tab.goto(`${base}${page.path}`)
  await tab.locator(page.ready).first().waitFor({ state: 'visible', timeout: 10_000 })
  // What a page asks after its first rows (names for its addresses) belongs to it too.
  await tab.waitForLoadState('networkidle').catch(() => {})
  await context.close()
  return paths
}

const { stack, dir, origin: base, api } = await startSeededDevStack(1_000_000)
// Its own stop ends the dev chain too; at an early exit the signal is all there is time for.
atExit(() => stack.child.kill('SIGTERM'))
atExit(() => rmSync(dir, { recursive: true, force: true }))
const overview = await api<{ txs: Array<{ hash: string }>; topAccounts: Array<{ address: string }>; blocks: Array<{ number: number }> }>('/overview')
const cases: PageCase[] = [
  { name: 'home `/`', path: '/', ready: '#latest-txs tbody tr' },
  { name: 'a transaction `/tx/{hash}`', path: `/tx/${overview.txs[0]!.hash}`, ready: '#tx-status' },
  { name: 'an address `/address/{address}`', path: `/address/${overview.topAccounts[0]!.address}`, ready: '#address-txs tbody tr' },
  { name: 'a block `/block/{number}`', path: `/block/${overview.blocks[0]!.number}`, ready: '#block-txs tbody tr' },
  { name: 'the exchange `/exchange`', path: '/exchange', ready: '#exchange-pairs tbody tr' },
]

const browser = await launchChromium()
const rows: string[][] = []
for (const page of cases) {
  const paths = await pathsOf(browser, base, page)
  // One load first, for the stack's kept answers and the browser's own start-up.
  await loadTimes(browser, base, page, 1)
  const stackTimes = summarize(await loadTimes(browser, base, page, LOADS))
  const recorded = await record(base, paths)
  const ceiling = await withCeiling(recorded, async (ceilingBase) => {
    await loadTimes(browser, ceilingBase, page, 1)
    return summarize(await loadTimes(browser, ceilingBase, page, LOADS))
  })
  rows.push([page.name, String(paths.length), fmt.ms(stackTimes.p50), fmt.ms(stackTimes.p95), fmt.ms(ceiling.p50), fmt.ms(ceiling.p95), fmt.ratio(ceiling.p50, stackTimes.p50)])
}

const script = new Uint8Array(await (await fetch(`${base}/app.js`)).arrayBuffer())
const style = new Uint8Array(await (await fetch(`${base}/app.css`)).arrayBuffer())
printTable(
  `bench:pages: ${LOADS} loads a page, each in a new browser context (Chromium, 1280×900), to its first rows of data`,
  ['page', 'requests', 'p50 ms', 'p95 ms', 'ceiling p50 ms', 'ceiling p95 ms', 'of ceiling (p50)'],
  rows,
  [
    `script ${fmt.count(script.length)} bytes (${fmt.count(Bun.gzipSync(script).length)} gzipped), style ${fmt.count(style.length)} bytes (${fmt.count(Bun.gzipSync(style).length)} gzipped)`,
    'ceiling: a bare Bun.serve giving the same recorded bytes for every path the page asks; "of ceiling" is its p50 over the stack\'s',
  ],
)
await browser.close()
await stack.stop()
rmSync(dir, { recursive: true, force: true })
process.exit(0)
