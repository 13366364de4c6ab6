import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import { encodeFunctionData, type Hash, type Hex } from 'viem'
import { expectText, openPage, pagesStack, screenshot, type PagesStack } from '../helpers/explorerPages.ts'
import { waitFor } from '../helpers/wait.ts'
import { COUNTER_SOURCE, deployProxy, deployVerifiedCounter, SENDER, START, type Counter } from './counterContract.ts'

// A developer's own verified contract in Chromium against `stack dev`: its Code, Read and Write
// tabs, and the page of a transaction of it that failed. The wallet is an EIP-1193 provider
// injected into the page as a browser extension injects one: it lives outside the page (here in
// the test), answers for anvil's unlocked account #9 and forwards what it sends to the real node.

let stack: PagesStack
let counter: Counter

beforeAll(async () => {
  stack = await pagesStack()
  counter = await deployVerifiedCounter(stack.dir, stack.stack.urls.etherscan!)
}, 120_000)

type WalletLog = Array<{ method: string; params: unknown[] }>

/**
 * Puts a wallet in every page of `context`: `window.ethereum.request` goes to this process, which
 * starts on another chain (so the page must switch, and add the chain when the wallet does not
 * know it) and forwards the node's methods to anvil.
 */
async function injectWallet(context: BrowserContext, log: WalletLog): Promise<void> {
  let chainId = '0x1'
  await context.exposeFunction('__wallet', async (method: string, params: unknown[]) => {
    log.push({ method, params })
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return { result: [SENDER] }
    if (method === 'eth_chainId') return { result: chainId }
    if (method === 'wallet_switchEthereumChain') return { error: { code: 4902, message: 'Unrecognized chain ID' } }
    // The person declines one transaction: adding 666.
    if (method === 'eth_sendTransaction' && (params[0] as { data: string }).data.endsWith((666).toString(16).padStart(64, '0'))) return { error: { code: 4001, message: 'User rejected the request.' } }
    if (method === 'wallet_addEthereumChain') {
      chainId = (params[0] as { chainId: string }).chainId
      return { result: null }
    }
    try {
      return { result: await counter.rpc.call(method, params) }
    } catch (error) {
      return { error: { code: -32603, message: (error as Error).message } }
    }
  })
  // The page's side, as an extension's content script puts it there: errors keep their EIP-1193 code.
  await context.addInitScript({
    content: `window.ethereum = {
      request: async ({ method, params = [] }) => {
        const answer = await window.__wallet(method, params)
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
        return answer.result
      },
    }`,
  })
}

/** Nothing is wider than the viewport: the page does not scroll sideways. */
const pageWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth')

describe('a verified contract: Code, Read and Write', () => {
  let page: Page
  let errors: string[]
  let close: () => Promise<void>
  const wallet: WalletLog = []
  let failed: Hash

  beforeAll(async () => {
    ;({ page, errors, close } = await openPage(stack.browser))
    await injectWallet(page.context(), wallet)
  })
  afterAll(() => close())

  test('Code: the match in words, the compiler settings, the source numbered and highlighted, the ABI', async () => {
    await page.goto(`${stack.origin}/address/${counter.address}`)
    await expectText(page, '#contract-match', 'Verified (exact match)')
    await expectText(page, '#address-match', 'Counter · Verified (exact match)')
    await expectText(page, '#contract-compiler', counter.compilerVersion)
    await expectText(page, '#contract-optimizer', 'on, 200 runs')
    await expectText(page, '#contract-evm', 'cancun')
    const source = page.locator('#contract-sources .source').first()
    const lines = (await source.locator('.gutter').textContent())!.split('\n')
    expect(lines.slice(0, 3)).toEqual(['1', '2', '3'])
    expect(lines.length).toBe(COUNTER_SOURCE.split('\n').length)
    // Highlighted: the grammar marked the keywords and the comments.
    expect(await source.locator('.hljs-keyword', { hasText: 'contract' }).count()).toBeGreaterThan(0)
    expect(await source.locator('.hljs-comment').count()).toBeGreaterThan(0)
    expect(await source.locator('code').textContent()).toContain('function describe(string calldata name)')
    expect(JSON.parse((await page.locator('#contract-abi').textContent())!)).toEqual(counter.abi)
    // The copy buttons put the ABI and each file on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.origin })
    await page.getByRole('button', { name: 'Copy the ABI' }).click()
    await expectText(page, 'button[aria-label="Copy the ABI"]', 'Copied')
    expect(JSON.parse(await page.evaluate<string>('navigator.clipboard.readText()'))).toEqual(counter.abi)
    await page.getByRole('button', { name: 'Copy the source of src/Counter.sol' }).click()
    await expectText(page, 'button[aria-label="Copy the source of src/Counter.sol"]', 'Copied')
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(COUNTER_SOURCE)
    await screenshot(page, 'contract-code')
    expect(errors).toEqual([])
  })

  test('Read: a view function called through the explorer, its outputs shown; a revert in words', async () => {
    await page.locator('#tab-read').click()
    await page.waitForURL(/\?tab=read$/)
    const describe = page.locator('form[data-function="describe"]')
    await describe.locator('input').fill('The counter')
    await describe.locator('button[type="submit"]').click()
    await expectText(page, 'form[data-function="describe"] .result', 'label string')
    expect(await describe.locator('.result dt').allTextContents()).toEqual(['label string', 'value uint256'])
    expect(await describe.locator('.result dd').allTextContents()).toEqual(['The counter is at', String(START)])
    const ratio = page.locator('form[data-function="ratio"]')
    await ratio.locator('input').fill('5000')
    await ratio.locator('button[type="submit"]').click()
    await expectText(page, 'form[data-function="ratio"] .result', 'Reverted: TooMany(5000, 1000)')
    await ratio.locator('input').fill('-1')
    await ratio.locator('button[type="submit"]').click()
    await expectText(page, 'form[data-function="ratio"] .result', 'by: -1 does not fit in a uint256')
    await screenshot(page, 'contract-read')
    expect(errors).toEqual([])
  })

  test('Write: connect the injected wallet, which is put on chain 78270, send, and the hash links to the transaction', async () => {
    await page.locator('#tab-write').click()
    await page.waitForURL(/\?tab=write$/)
    // Read functions stay on their tab.
    expect(await page.locator('form[data-function="describe"]').count()).toBe(0)
    await page.locator('#wallet-connect').click()
    await expectText(page, '#wallet', 'Sending from')
    const add = page.locator('form[data-function="add"]')
    await add.locator('input').fill('7')
    await add.locator('button[type="submit"]').click()
    await expectText(page, 'form[data-function="add"] .result', 'Sent:')
    const hash = (await add.locator('.result a').getAttribute('title')) as Hash
    expect(await add.locator('.result a').getAttribute('href')).toBe(`/tx/${hash}`)
    // The wallet was asked to add the chain it did not know, and sent what the page encoded.
    const added = wallet.find((entry) => entry.method === 'wallet_addEthereumChain')
    expect(added?.params[0]).toMatchObject({ chainId: '0x131be', rpcUrls: [counter.rpcUrl] })
    const sent = wallet.find((entry) => entry.method === 'eth_sendTransaction')
    expect(sent?.params[0]).toEqual({ from: SENDER, to: counter.address, data: encodeFunctionData({ abi: counter.abi, functionName: 'add', args: [7n] }) })
    await waitFor(async () => (await counter.rpc.call<{ status: Hex } | null>('eth_getTransactionReceipt', [hash]))?.status === '0x1', 'the sent transaction mined')
    const count = await stack.api<{ outputs: Array<{ value: string }> }>(`/address/${counter.address}/call?data=${encodeFunctionData({ abi: counter.abi, functionName: 'count' })}`)
    expect(count.outputs[0]!.value).toBe(String(START + 7n))
    await screenshot(page, 'contract-write')
    // A transaction the person declines in the wallet is said in words.
    await add.locator('input').fill('666')
    await add.locator('button[type="submit"]').click()
    await expectText(page, 'form[data-function="add"] .result', 'You declined the request in your wallet.')
    // One that will revert is still the wallet's to send: it is mined, failed.
    const fail = page.locator('form[data-function="fail"]')
    await fail.locator('button[type="submit"]').click()
    await expectText(page, 'form[data-function="fail"] .result', 'Sent:')
    failed = (await fail.locator('.result a').getAttribute('title')) as Hash
    expect(errors).toEqual([])
  })

  test('a failed transaction of it: its page says Failed and the reason in words at the top', async () => {
    const hash = failed
    await waitFor(async () => (await counter.rpc.call<{ status: Hex } | null>('eth_getTransactionReceipt', [hash]))?.status === '0x0', 'the failed transaction mined, reverted')
    await waitFor(async () => (await fetch(`${stack.origin}/api/tx/${hash}`)).status === 200, 'the failed transaction indexed')
    const tx = await stack.api<{ revertReason: { kind: string; message: string } | null }>(`/tx/${hash}`)
    expect(tx.revertReason).toMatchObject({ kind: 'error', message: 'the counter refuses' })
    await page.goto(`${stack.origin}/tx/${hash}`)
    await expectText(page, '#tx-revert', 'Failed: the counter refuses')
    await screenshot(page, 'tx-failed')
    expect(errors).toEqual([])
  })
})

describe('a proxy nobody verified, to the verified contract', () => {
  test('its page offers the implementation\'s Read and Write, called at the proxy', async () => {
    const proxy = await deployProxy(counter.rpc, counter.address)
    const { page, errors, close } = await openPage(stack.browser)
    const wallet: WalletLog = []
    await injectWallet(page.context(), wallet)
    try {
      await page.goto(`${stack.origin}/address/${proxy}?tab=read`)
      await expectText(page, '#address-proxy', 'Counter')
      await expectText(page, '#contract-proxy-note', 'as its implementation Counter')
      const describe = page.locator('form[data-function="describe"]')
      await describe.locator('input').fill('Proxied')
      await describe.locator('button[type="submit"]').click()
      await expectText(page, 'form[data-function="describe"] .result', 'label string')
      // The proxy's own storage: its count is 0.
      expect(await describe.locator('.result dd').allTextContents()).toEqual(['Proxied is at', '0'])
      await screenshot(page, 'contract-proxy-read')
      await page.locator('#tab-write').click()
      await page.locator('#wallet-connect').click()
      const add = page.locator('form[data-function="add"]')
      await add.locator('input').fill('3')
      await add.locator('button[type="submit"]').click()
      await expectText(page, 'form[data-function="add"] .result', 'Sent:')
      const sent = wallet.find((entry) => entry.method === 'eth_sendTransaction')
      expect(sent?.params[0]).toMatchObject({ to: proxy })
      const hash = (await add.locator('.result a').getAttribute('title')) as Hash
      await waitFor(async () => (await counter.rpc.call<{ status: Hex } | null>('eth_getTransactionReceipt', [hash]))?.status === '0x1', 'the send through the proxy mined')
      const count = await stack.api<{ outputs: Array<{ value: string }> }>(`/address/${proxy}/call?data=${encodeFunctionData({ abi: counter.abi, functionName: 'count' })}`)
      expect(count.outputs[0]!.value).toBe('3')
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  })
})

describe('the contract tabs at a phone\'s width and a laptop\'s, light and dark', () => {
  for (const [width, dark] of [
    [390, false],
    [390, true],
    [1280, true],
  ] as const) {
    test(`${width} px, ${dark ? 'dark' : 'light'}: nothing wider than the viewport; long source lines scroll in their box`, async () => {
      const { page, errors, close } = await openPage(stack.browser, { width, height: 844, dark })
      try {
        await page.goto(`${stack.origin}/address/${counter.address}`)
        await expectText(page, '#contract-match', 'Verified (exact match)')
        const box = page.locator('#contract-sources .source').first()
        await box.waitFor()
        expect(await pageWidth(page)).toBeLessThanOrEqual(width)
        const { scrollWidth, clientWidth } = await box.evaluate((element) => ({ scrollWidth: element.scrollWidth, clientWidth: element.clientWidth }))
        expect(clientWidth).toBeLessThanOrEqual(width)
        expect(scrollWidth).toBeGreaterThan(clientWidth)
        await screenshot(page, `contract-code-${width}-${dark ? 'dark' : 'light'}`)
        await page.goto(`${stack.origin}/address/${counter.address}?tab=read`)
        await page.locator('form[data-function="count"] button[type="submit"]').click()
        await expectText(page, 'form[data-function="count"] .result', 'uint256')
        expect(await pageWidth(page)).toBeLessThanOrEqual(width)
        await screenshot(page, `contract-read-${width}-${dark ? 'dark' : 'light'}`)
        await page.goto(`${stack.origin}/address/${counter.address}?tab=write`)
        await page.locator('form[data-function="add"]').waitFor()
        expect(await pageWidth(page)).toBeLessThanOrEqual(width)
        await screenshot(page, `contract-write-${width}-${dark ? 'dark' : 'light'}`)
        expect(errors).toEqual([])
      } finally {
        await close()
      }
    })
  }
})
