import { afterAll, describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Elysia } from 'elysia'
import { conventions } from '../../src/http/conventions.ts'
import { createRegistryCopy, registryRoutes } from '../../src/registry/routes.ts'
import { testContext } from '../helpers/service.ts'
import { ROOT } from '../helpers/stack.ts'

const BX = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const WETH = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const DUSD = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0'
/** A tag whose logo is logos/tags/exchange.svg. */
const FACTORY = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'
/** A checksummed address the seeded list does not hold. */
const NEW_TOKEN = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9'
const RAW_BASE = 'https://raw.githubusercontent.com/stack-chain/registry/main'

const REJECTED = 'logo rejected: it fails the logo rules; the last good one, if any, stays in service'

const works: string[] = []
afterAll(() => {
  for (const work of works) rmSync(work, { recursive: true, force: true })
})

type TokenEntry = Record<string, unknown> & { address: string }

/**
 * A copy of the seeded registry that the test edits, with a data dir of its own. `open()` makes
 * the explorer's RegistryCopy on them (loaded from disk, as at a start) and the /api routes over
 * it; the routes are called with `handle`, so no timer refreshes behind the test's back.
 */
function registryFixture() {
  const work = mkdtempSync(join(tmpdir(), 'stack-registry-logos-'))
  works.push(work)
  const source = join(work, 'registry')
  const data = join(work, 'data')
  cpSync(join(ROOT, 'registry'), source, { recursive: true, filter: (path) => !path.includes('node_modules') })
  const toml = `[data]\ndir = "${data}"\n[registry]\nsource = "${source}"\n`
  const inSource = (path: string) => join(source, 'testnet', path)
  return {
    inSource,
    /** The explorer's cached copy of a repository file. */
    cached: (path: string) => join(data, 'registry/testnet', path),
    editList(edit: (tokens: TokenEntry[]) => TokenEntry[]) {
      const list = JSON.parse(readFileSync(inSource('tokenlist.json'), 'utf8')) as { tokens: TokenEntry[] }
      list.tokens = edit(list.tokens)
      writeFileSync(inSource('tokenlist.json'), `${JSON.stringify(list, null, 2)}\n`)
    },
    open() {
      const context = testContext(toml)
      const copy = createRegistryCopy(context)
      const api = new Elysia({ prefix: '/api' })
        .use(conventions({ service: 'explorer', log: context.log, host: '127.0.0.1', cors: null, trustedProxyHops: 0 }).plugin)
        .use(registryRoutes(copy, 86_400))
      const get = async (path: string) => {
        const response = await api.handle(new Request(`http://127.0.0.1/api${path}`))
        return { status: response.status, type: response.headers.get('content-type'), digest: digest(new Uint8Array(await response.arrayBuffer())) }
      }
      return { copy, get, lines: context.lines }
    },
  }
}

/** Short and readable in a failure message, unlike 7 KB of bytes. */
function digest(bytes: Uint8Array | null | undefined): string | null {
  return bytes ? createHash('sha256').update(bytes).digest('hex').slice(0, 16) : null
}

const fileDigest = (path: string) => digest(readFileSync(path))
const tokenLogoPath = (address: string, extension: 'png' | 'svg') => `logos/tokens/${address}.${extension}`

/** The same PNG with other dimensions in its IHDR chunk: it fails "exactly 256 x 256". */
function resizedPng(png: Uint8Array, size: number): Uint8Array {
  const copy = new Uint8Array(png)
  const view = new DataView(copy.buffer)
  view.setUint32(16, size)
  view.setUint32(20, size)
  return copy
}

const withScript = (svg: string) => svg.replace('</svg>', '<script>alert(1)</script></svg>')

describe('registry logos follow the list file rule: a bad one never replaces a good one', () => {
  test('a logo replaced by bytes that fail the rules leaves the last good one in service, in memory, over HTTP and on disk', async () => {
    const registry = registryFixture()
    const { copy, get, lines } = registry.open()
    await copy.refresh()
    const png = tokenLogoPath(BX, 'png')
    const good = fileDigest(registry.inSource(png))
    const goodTag = fileDigest(registry.inSource('logos/tags/exchange.svg'))
    expect(digest(copy.tokenLogo(BX)?.bytes)).toBe(good)

    const expectGoodOnesServed = async () => {
      expect(digest(copy.tokenLogo(BX)?.bytes)).toBe(good)
      expect(await get(`/tokenlogo/${BX}`)).toEqual({ status: 200, type: 'image/png', digest: good })
      expect(fileDigest(registry.cached(png))).toBe(good)
      expect(digest(copy.tagLogo(FACTORY)?.bytes)).toBe(goodTag)
      expect((await get(`/taglogo/${FACTORY}`)).digest).toBe(goodTag)
      expect(fileDigest(registry.cached('logos/tags/exchange.svg'))).toBe(goodTag)
    }

    writeFileSync(registry.inSource(png), resizedPng(readFileSync(registry.inSource(png)), 128))
    writeFileSync(registry.inSource('logos/tags/exchange.svg'), withScript(readFileSync(registry.inSource('logos/tags/exchange.svg'), 'utf8')))
    expect(await copy.refresh()).toEqual({ 'tokenlist.json': 'unchanged', 'tags.json': 'unchanged' })
    await expectGoodOnesServed()
    // A list change in the same state: the logos are read with the new list, and still kept.
    registry.editList((tokens) => tokens.map((token) => (token.address === DUSD ? { ...token, name: 'Demo Dollar' } : token)))
    expect((await copy.refresh())['tokenlist.json']).toBe('replaced')
    await expectGoodOnesServed()

    const rejected = lines.filter((line) => line.msg === REJECTED).map((line) => JSON.stringify(line.problems))
    expect(rejected.join()).toContain('PNG is 128x128, it must be 256x256')
    expect(rejected.join()).toContain('SVG must not contain a script element')
  })

  test('a logo replaced under the same file name by good bytes is served after the next refresh, with no change to the list', async () => {
    const registry = registryFixture()
    const { copy, get } = registry.open()
    await copy.refresh()
    const svg = tokenLogoPath(WETH, 'svg')
    const recoloured = readFileSync(registry.inSource(svg), 'utf8').replace('#2b2d42', '#7b2d42')
    writeFileSync(registry.inSource(svg), recoloured)

    expect(await copy.refresh()).toEqual({ 'tokenlist.json': 'unchanged', 'tags.json': 'unchanged' })
    const fresh = digest(new TextEncoder().encode(recoloured))
    expect(digest(copy.tokenLogo(WETH)?.bytes)).toBe(fresh)
    expect(await get(`/tokenlogo/${WETH}`)).toEqual({ status: 200, type: 'image/svg+xml', digest: fresh })
    expect(fileDigest(registry.cached(svg))).toBe(fresh)
  })

  test('logos whose bytes did not change are not written again, neither on a refresh nor after a restart', async () => {
    const registry = registryFixture()
    const first = registry.open()
    await first.copy.refresh()
    const cachedPng = registry.cached(tokenLogoPath(BX, 'png'))
    const before = statSync(cachedPng)
    const accepted = () => first.lines.filter((line) => line.msg === 'logo accepted').length
    const acceptedAfterFirst = accepted()

    await first.copy.refresh()
    const second = registry.open()
    await second.copy.refresh()

    // writeFileAtomic renames a new file into place: a rewrite would show as a new inode.
    const after = statSync(cachedPng)
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs])
    expect(accepted()).toBe(acceptedAfterFirst)
    expect(second.lines.filter((line) => line.msg === 'logo accepted')).toEqual([])
    expect(second.copy.tokenLogo(BX)).not.toBeNull()
  })

  test('a logo that cannot be read keeps the served one', async () => {
    const registry = registryFixture()
    const { copy, get } = registry.open()
    await copy.refresh()
    const png = tokenLogoPath(BX, 'png')
    const good = fileDigest(registry.inSource(png))
    rmSync(registry.inSource(png))
    await copy.refresh()
    expect((await get(`/tokenlogo/${BX}`)).digest).toBe(good)
  })

  test('a token removed from the list no longer has its logo served, not even after a restart', async () => {
    const registry = registryFixture()
    const { copy, get } = registry.open()
    await copy.refresh()
    expect(copy.tokenLogo(DUSD)).not.toBeNull()

    registry.editList((tokens) => tokens.filter((token) => token.address !== DUSD))
    expect((await copy.refresh())['tokenlist.json']).toBe('replaced')
    expect(copy.tokenLogo(DUSD)).toBeNull()
    expect((await get(`/tokenlogo/${DUSD}`)).status).toBe(404)

    const restarted = registry.open()
    expect(restarted.copy.tokenLogo(DUSD)).toBeNull()
    expect(restarted.copy.tokenLogo(WETH)).not.toBeNull()
  })

  test('a token added with a logo that fails the rules has no logo: there is no earlier good one', async () => {
    const registry = registryFixture()
    const { copy, get } = registry.open()
    await copy.refresh()
    const png = tokenLogoPath(NEW_TOKEN, 'png')
    writeFileSync(registry.inSource(png), resizedPng(readFileSync(registry.inSource(tokenLogoPath(BX, 'png'))), 64))
    registry.editList((tokens) => [
      ...tokens,
      { chainId: 78270, address: NEW_TOKEN, name: 'New Token', symbol: 'NEW', decimals: 18, logoURI: `${RAW_BASE}/testnet/${png}` },
    ])
    expect((await copy.refresh())['tokenlist.json']).toBe('replaced')
    expect(copy.tokenLogo(NEW_TOKEN)).toBeNull()
    expect((await get(`/tokenlogo/${NEW_TOKEN}`)).status).toBe(404)
  })

  test('after a restart, the last good logo on disk is served, not the rejected one', async () => {
    const registry = registryFixture()
    const first = registry.open()
    await first.copy.refresh()
    const png = tokenLogoPath(BX, 'png')
    const good = fileDigest(registry.inSource(png))
    writeFileSync(registry.inSource(png), resizedPng(readFileSync(registry.inSource(png)), 512))
    await first.copy.refresh()

    const second = registry.open()
    expect(await second.get(`/tokenlogo/${BX}`)).toEqual({ status: 200, type: 'image/png', digest: good })
    await second.copy.refresh()
    expect(digest(second.copy.tokenLogo(BX)?.bytes)).toBe(good)
  })

  test('a logo on disk that fails the rules is not served at a start, with a warning', async () => {
    const registry = registryFixture()
    await registry.open().copy.refresh()
    // As if the rules had become stricter since the file was cached.
    const svg = tokenLogoPath(WETH, 'svg')
    writeFileSync(registry.cached(svg), withScript(readFileSync(registry.cached(svg), 'utf8')))

    const restarted = registry.open()
    expect(restarted.copy.tokenLogo(WETH)).toBeNull()
    expect(restarted.copy.tokenLogo(BX)).not.toBeNull()
    expect(restarted.lines.find((line) => line.msg === 'the logo on disk fails the logo rules; not served')).toBeDefined()
  })

  test('a logoURI switched from PNG to an SVG that fails the rules keeps the PNG, across a restart, until a good SVG replaces it', async () => {
    const registry = registryFixture()
    const first = registry.open()
    await first.copy.refresh()
    const png = tokenLogoPath(BX, 'png')
    const svg = tokenLogoPath(BX, 'svg')
    const goodPng = fileDigest(registry.inSource(png))

    // The contributor follows the procedure: new file, logoURI updated, old file deleted; but the SVG is bad.
    const badSvg = withScript(readFileSync(registry.inSource(tokenLogoPath(WETH, 'svg')), 'utf8'))
    writeFileSync(registry.inSource(svg), badSvg)
    rmSync(registry.inSource(png))
    registry.editList((tokens) => tokens.map((token) => (token.address === BX ? { ...token, logoURI: `${RAW_BASE}/testnet/${svg}` } : token)))
    expect((await first.copy.refresh())['tokenlist.json']).toBe('replaced')
    expect(await first.get(`/tokenlogo/${BX}`)).toEqual({ status: 200, type: 'image/png', digest: goodPng })

    const second = registry.open()
    expect(await second.get(`/tokenlogo/${BX}`)).toEqual({ status: 200, type: 'image/png', digest: goodPng })
    await second.copy.refresh()
    expect((await second.get(`/tokenlogo/${BX}`)).digest).toBe(goodPng)

    // A good SVG under the new name replaces the PNG, and a restart keeps the SVG.
    const goodSvg = readFileSync(registry.inSource(tokenLogoPath(WETH, 'svg')), 'utf8').replace('#2b2d42', '#1b1d32')
    writeFileSync(registry.inSource(svg), goodSvg)
    await second.copy.refresh()
    const expected = { status: 200, type: 'image/svg+xml', digest: digest(new TextEncoder().encode(goodSvg)) }
    expect(await second.get(`/tokenlogo/${BX}`)).toEqual(expected)
    expect(await registry.open().get(`/tokenlogo/${BX}`)).toEqual(expected)
  })
})
