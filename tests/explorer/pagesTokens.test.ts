import { describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { expectText, openPage, pageForFile, screenshot, type PagesStack } from '../helpers/explorerPages.ts'

// The token and NFT pages in Chromium against `stack dev`: each shows what the API says (read
// from the API here and found on the page), loads nothing from another origin, and meets no
// script error or failed request.

let stack: PagesStack
let page: Page
let errors: string[]
pageForFile((shared) => ({ stack, page, errors } = shared))

type Token = { address: string; name: string | null; symbol: string | null; decimals: number | null; totalSupply: string | null; transfers: number; native: boolean; verified: boolean; logoURI: string | null; label: string | null }
type Collection = { address: string; name: string | null; symbol: string | null; standard: string; minted: number; transfers: number; verified: boolean; label: string | null }

const grouped = (value: number | bigint) => value.toLocaleString('en-US')
/** The whole part of an amount in its token's units, grouped: written here apart from the pages' own formatting. */
const wholeUnits = (amount: string, decimals: number) => grouped(BigInt(amount) / 10n ** BigInt(decimals))

/** The BX token of the seed: the native token, listed (verified) with a logo. */
async function bx(): Promise<Token> {
  const tokens = await stack.api<Token[]>('/tokens')
  const token = tokens.find((entry) => entry.symbol === 'BX')
  if (!token) throw new Error(`no BX in /api/tokens: ${tokens.map((entry) => entry.symbol).join(', ')}`)
  return token
}

/** Waits until the image at `selector` is drawn (decoded, with a width). */
const drawn = (page: Page, selector: string) => page.waitForFunction(`(document.querySelector(${JSON.stringify(selector)})?.naturalWidth ?? 0) > 0`, undefined, { timeout: 10_000 })

/** Every image the page draws comes from its own origin or is inline. */
async function imagesAreLocal(page: Page, origin: string) {
  const sources = await page.locator('img').evaluateAll((images) => images.map((image) => (image as unknown as { src: string }).src))
  for (const source of sources) expect(source.startsWith(`${origin}/`) || source.startsWith('data:')).toBe(true)
  return sources
}

describe('the token and NFT pages', () => {
  test('the token list: logo, name, symbol, verified mark, total supply in its units, transfers', async () => {
    const tokens = await stack.api<Token[]>('/tokens')
    const token = await bx()
    expect(token.verified).toBe(true)
    expect(token.logoURI).not.toBeNull()
    await page.goto(`${stack.origin}/tokens`)
    const row = `#tokens tr[data-address="${token.address}"]`
    await expectText(page, row, token.name!)
    await expectText(page, row, token.symbol!)
    await expectText(page, row, wholeUnits(token.totalSupply!, token.decimals!))
    await expectText(page, row, grouped(token.transfers))
    await expectText(page, `${row} .badge.good`, 'verified')
    // Its logo from this origin's registry copy, drawn; never the logoURI's own host.
    const logo = page.locator(`${row} img.logo`)
    expect(await logo.getAttribute('src')).toBe(`/api/tokenlogo/${token.address}`)
    await drawn(page, `${row} img.logo`)
    // An unlisted token: no mark, no logo requested.
    const unlisted = tokens.find((entry) => !entry.verified)
    if (unlisted) {
      const other = `#tokens tr[data-address="${unlisted.address}"]`
      await expectText(page, other, unlisted.symbol ?? unlisted.address)
      expect(await page.locator(`${other} .badge.good`).count()).toBe(0)
      expect(await page.locator(`${other} img`).count()).toBe(0)
    }
    expect(await page.locator('#tokens tbody tr').count()).toBe(tokens.length)
    await imagesAreLocal(page, stack.origin)
    await screenshot(page, 'tokens')
    expect(errors).toEqual([])
  })

  test('a click on a token in the list leads to its page', async () => {
    const token = await bx()
    await page.goto(`${stack.origin}/tokens`)
    await page.locator(`#tokens tr[data-address="${token.address}"] a[href="/token/${token.address}"]`).click()
    await expectText(page, '#token-title', token.name!)
    expect(new URL(page.url()).pathname).toBe(`/token/${token.address}`)
    // And the menu leads back to the list.
    await page.getByRole('navigation', { name: 'main' }).getByRole('link', { name: 'Tokens' }).click()
    await expectText(page, '#tokens tbody', token.symbol!)
    expect(new URL(page.url()).pathname).toBe('/tokens')
    expect(errors).toEqual([])
  })

  test('a token: logo, name, symbol, decimals, supply, verified mark, label, transfers, its contract\'s transactions', async () => {
    const token = await bx()
    const contract = await stack.api<{ transactions: Array<{ hash: string }> }>(`/address/${token.address}?limit=25`)
    // Any case of the address finds it.
    await page.goto(`${stack.origin}/token/${token.address.toLowerCase()}`)
    await expectText(page, '#token-title', token.name!)
    await expectText(page, '#token-symbol', token.symbol!)
    await expectText(page, '#token-decimals', String(token.decimals))
    await expectText(page, '#token-supply', `${wholeUnits(token.totalSupply!, token.decimals!)} ${token.symbol}`)
    await expectText(page, '#token-verified .badge.good', 'verified')
    await expectText(page, '#token-label', token.label!)
    await expectText(page, '#token-transfers', grouped(token.transfers))
    expect(await page.locator('#token img.logo').getAttribute('src')).toBe(`/api/tokenlogo/${token.address}`)
    await drawn(page, '#token img.logo')
    expect(contract.transactions.length).toBeGreaterThan(0)
    await expectText(page, '#token-txs tbody', contract.transactions[0]!.hash.slice(0, 8))
    await imagesAreLocal(page, stack.origin)
    await screenshot(page, 'token')
    // An address that is no token says so.
    await page.goto(`${stack.origin}/token/0x000000000000000000000000000000000000dEaD`)
    await expectText(page, '#token-missing', 'is not among the tokens')
    expect(errors).toEqual([])
  })

  test('the NFT collections: name, symbol, standard, minted, transfers', async () => {
    const { nfts } = await stack.api<{ nfts: Collection[] }>('/nfts')
    expect(nfts.length).toBeGreaterThan(0)
    await page.goto(`${stack.origin}/nfts`)
    for (const nft of nfts) {
      const row = `#nfts tr[data-address="${nft.address}"]`
      await expectText(page, row, nft.name ?? nft.label ?? nft.address)
      if (nft.symbol) await expectText(page, row, nft.symbol)
      await expectText(page, row, nft.standard.replace('erc', 'ERC-'))
      await expectText(page, row, grouped(nft.minted))
      expect((await page.locator(`${row} .badge.good`).count()) > 0).toBe(nft.verified)
    }
    await screenshot(page, 'nfts')
    expect(errors).toEqual([])
  })

  test('a collection: its fields, items with their owners, recent transfers; a click leads to an item', async () => {
    const { nfts } = await stack.api<{ nfts: Collection[] }>('/nfts')
    // The seed's demo collection; its items' metadata are data: URIs with inline images.
    const chosen = nfts.find((nft) => nft.symbol === 'SKETCH') ?? nfts[0]!
    const collection = await stack.api<any>(`/nft/${chosen.address}?limit=48&offset=0`)
    await page.goto(`${stack.origin}/nfts`)
    await page.locator(`#nfts tr[data-address="${chosen.address}"] a`).first().click()
    await expectText(page, '#nft-collection-title', collection.name)
    expect(new URL(page.url()).pathname).toBe(`/nft/${chosen.address}`)
    await expectText(page, '#nft-collection', collection.standard.replace('erc', 'ERC-'))
    await expectText(page, '#nft-collection-items', grouped(collection.itemCount))
    if (collection.label) await expectText(page, '#nft-collection-label', collection.label.name)
    const first = collection.items[0]
    // Named by its metadata once resolved, by its collection and id before: its id shows either way.
    await expectText(page, `#nft-items li[data-token-id="${first.tokenId}"]`, `#${first.tokenId}`)
    if (first.owner) await expectText(page, `#nft-items li[data-token-id="${first.tokenId}"] .nft-owner`, await stack.shownAs(first.owner))
    await expectText(page, '#nft-transfers tbody', collection.transfers[0].txHash.slice(0, 8))
    await imagesAreLocal(page, stack.origin)
    await screenshot(page, 'nft-collection')
    await page.locator(`#nft-items li[data-token-id="${first.tokenId}"] a.nft-card`).click()
    await expectText(page, '#nft-item-collection', collection.name)
    expect(new URL(page.url()).pathname).toBe(`/nft/${chosen.address}/${first.tokenId}`)
    expect(errors).toEqual([])
  })

  test('an item: its owner, its metadata and inline image, its transfers', async () => {
    const { nfts } = await stack.api<{ nfts: Collection[] }>('/nfts')
    const chosen = nfts.find((nft) => nft.symbol === 'SKETCH') ?? nfts[0]!
    const collection = await stack.api<any>(`/nft/${chosen.address}?limit=48&offset=0`)
    const tokenId = collection.items[0].tokenId
    const item = await stack.api<any>(`/nft/${chosen.address}/${tokenId}`)
    await page.goto(`${stack.origin}/nft/${chosen.address}/${tokenId}`)
    await expectText(page, '#nft-item-title', item.metadata?.name ?? `#${tokenId}`)
    if (item.owner) await expectText(page, '#nft-owner', item.owner)
    else for (const holder of item.holders) await expectText(page, '#nft-holders tbody', holder.address)
    await expectText(page, '#nft-item-transfers tbody', item.transfers[0].txHash.slice(0, 8))
    if (item.metadata?.description) await expectText(page, '#nft-item', item.metadata.description.slice(0, 40))
    for (const attribute of item.metadata?.attributes ?? []) await expectText(page, '#nft-attributes tbody', String(attribute.trait_type))
    // The seed's images are data: URIs: drawn in place, nothing fetched.
    const image: string | undefined = item.metadata?.image
    if (image?.startsWith('data:image/')) {
      expect(await page.locator('#nft-item img.nft-image').getAttribute('src')).toBe(image)
      await drawn(page, '#nft-item img.nft-image')
    }
    await imagesAreLocal(page, stack.origin)
    await screenshot(page, 'nft-item')
    expect(errors).toEqual([])
  })

  test('an image on another origin is shown as its URL, never fetched', async () => {
    const { nfts } = await stack.api<{ nfts: Collection[] }>('/nfts')
    const chosen = nfts.find((nft) => nft.symbol === 'SKETCH') ?? nfts[0]!
    const collection = await stack.api<any>(`/nft/${chosen.address}?limit=48&offset=0`)
    const tokenId = collection.items[0].tokenId
    const item = await stack.api<any>(`/nft/${chosen.address}/${tokenId}`)
    // Metadata as a contract's deployer may write it: the image on some other host.
    const foreign = 'https://images.example.com/item.png'
    const { page: other, errors: otherErrors, close: closeOther } = await openPage(stack.browser)
    try {
      const asked: string[] = []
      other.on('request', (request) => asked.push(request.url()))
      await other.route(`**/api/nft/${chosen.address}/${tokenId}`, (route) =>
        route.fulfill({ json: { ...item, metadata: { ...item.metadata, name: 'Far away', image: foreign } } }),
      )
      await other.goto(`${stack.origin}/nft/${chosen.address}/${tokenId}`)
      await expectText(other, '#nft-item-title', 'Far away')
      await expectText(other, '#nft-image-url', foreign)
      expect(await other.locator('#nft-item img').count()).toBe(0)
      expect(asked.filter((url) => !url.startsWith(`${stack.origin}/`))).toEqual([])
      expect(otherErrors).toEqual([])
    } finally {
      await closeOther()
    }
  })

  test('an item the chain never saw is the API\'s 404, said as such', async () => {
    const { nfts } = await stack.api<{ nfts: Collection[] }>('/nfts')
    const { page: other, close: closeOther } = await openPage(stack.browser)
    try {
      await other.goto(`${stack.origin}/nft/${nfts[0]!.address}/999999999`)
      await expectText(other, '.failure', 'No such NFT')
    } finally {
      await closeOther()
    }
  })
})
