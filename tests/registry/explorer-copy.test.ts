import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createExplorerApp } from '../../src/explorer/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import { createRegistryCopy } from '../../src/registry/routes.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'
import { ROOT } from '../helpers/stack.ts'

const BX = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const WETH = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const FACTORY = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'

/** A copy of the seeded registry, served from a folder the test can break. */
const work = mkdtempSync(join(tmpdir(), 'stack-registry-'))
const source = join(work, 'registry')
const data = join(work, 'data')
cpSync(join(ROOT, 'registry'), source, { recursive: true, filter: (path) => !path.includes('node_modules') })
const toml = `[data]\ndir = "${data}"\n[registry]\nsource = "${source}"\nrefreshSeconds = 1\n`

// The explorer reads a spool; these tests need none of its rows, so it waits for a node that is not there.
const spoolContext = testContext('[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n')
const spool = await startSpool(spoolContext.config, spoolWiring(spoolContext.config), spoolContext.log)

const started: Listening[] = []
const explorerOn = () => {
  const context = testContext(toml)
  const explorer = serveOnFreePort(createExplorerApp(context, spool), 'explorer')
  started.push(explorer)
  return { explorer, context }
}
afterAll(async () => {
  for (const service of started) await service.stop().catch(() => {})
  await spool.stop()
  rmSync(work, { recursive: true, force: true })
})

describe('the explorer serves the validated registry', () => {
  let first: ReturnType<typeof explorerOn>
  beforeAll(async () => {
    first = explorerOn()
    await waitFor(async () => (await fetch(`${first.explorer.url}/api/tokenlist`)).status === 200, 'a first good copy')
    // The logos are fetched after the files are accepted: wait for them too.
    await waitFor(async () => (await fetch(`${first.explorer.url}/api/tokenlogo/${BX}`)).status === 200, 'the logos')
  })

  test('/api/tokenlist and /api/tags are the repository files, byte for byte', async () => {
    const list = await fetch(`${first.explorer.url}/api/tokenlist`)
    expect(list.headers.get('content-type')).toStartWith('application/json')
    expect(list.headers.get('cache-control')).toBe('no-store')
    expect(await list.text()).toBe(readFileSync(join(source, 'testnet/tokenlist.json'), 'utf8'))
    const tags = await fetch(`${first.explorer.url}/api/tags`)
    expect(await tags.text()).toBe(readFileSync(join(source, 'testnet/tags.json'), 'utf8'))
  })

  test('logos are raw bytes with the type of the file; SVGs carry a policy that forbids scripts', async () => {
    const png = await fetch(`${first.explorer.url}/api/tokenlogo/${BX.toLowerCase()}`)
    expect(png.status).toBe(200)
    expect(png.headers.get('content-type')).toBe('image/png')
    const bytes = new Uint8Array(await png.arrayBuffer())
    expect([...bytes.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const svg = await fetch(`${first.explorer.url}/api/tokenlogo/${WETH}`)
    expect(svg.headers.get('content-type')).toBe('image/svg+xml')
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'")
    const tagLogo = await fetch(`${first.explorer.url}/api/taglogo/${FACTORY}`)
    expect(tagLogo.status).toBe(200)
    expect(tagLogo.headers.get('content-type')).toBe('image/svg+xml')
  })

  test('no logo, or not listed: a JSON 404', async () => {
    for (const path of [`/api/tokenlogo/${FACTORY}`, '/api/tokenlogo/0x0000000000000000000000000000000000000001', '/api/taglogo/not-an-address', `/api/taglogo/${BX}`]) {
      const response = await fetch(`${first.explorer.url}${path}`)
      expect(response.status).toBe(404)
      expect(await response.json()).toHaveProperty('error')
    }
  })

  test('a bad update is rejected whole and the previous copy stays; a good one replaces it', async () => {
    const file = join(source, 'testnet/tokenlist.json')
    const good = readFileSync(file, 'utf8')
    const served = async () => (await fetch(`${first.explorer.url}/api/tokenlist`)).text()
    const before = await served()
    // A wrong checksum and a wrong chain id: the whole file is refused at the next fetch.
    writeFileSync(file, good.replace(BX, BX.toLowerCase()).replace('"chainId": 78270', '"chainId": 1'))
    const rejected = await waitFor(() => first.context.lines.find((line) => line.msg === 'registry file rejected: it fails validation; the previous copy stays in service'), 'the rejection')
    expect(JSON.stringify(rejected.problems)).toContain('is not EIP-55 checksummed')
    expect(JSON.stringify(rejected.problems)).toContain('chainId')
    expect(await served()).toBe(before)

    // A good change replaces the copy, in memory and on disk.
    const renamed = good.replace('"name": "Demo USD"', '"name": "Demo Dollar"')
    writeFileSync(file, renamed)
    await waitFor(async () => (await served()) === renamed, 'the good update')
    expect(readFileSync(join(data, 'registry/testnet/tokenlist.json'), 'utf8')).toBe(renamed)

    // The same rules as the repository's own validator, on a copy made outside the explorer.
    writeFileSync(file, '{ not json')
    const registry = createRegistryCopy(testContext(toml))
    expect((await registry.refresh())['tokenlist.json']).toBe('rejected')
    expect(registry.file('tokenlist.json')!.text).toBe(renamed)
    writeFileSync(file, good)
    expect((await registry.refresh())['tokenlist.json']).toBe('replaced')
  })

  test('after a restart, the last good copy on disk is served at once, even with the source gone', async () => {
    await first.explorer.stop()
    cpSync(source, join(work, 'moved'), { recursive: true })
    rmSync(source, { recursive: true, force: true })
    try {
      const second = explorerOn()
      const list = await fetch(`${second.explorer.url}/api/tokenlist`)
      expect(list.status).toBe(200)
      expect(((await list.json()) as { tokens: unknown[] }).tokens).toHaveLength(3)
      expect((await fetch(`${second.explorer.url}/api/tokenlogo/${BX}`)).status).toBe(200)
    } finally {
      cpSync(join(work, 'moved'), source, { recursive: true })
    }
  })
})

test('before any good copy: 503', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'stack-registry-empty-'))
  const context = testContext(`[registry]\nsource = "${empty}"\n`)
  const explorer = serveOnFreePort(createExplorerApp(context, spool), 'explorer')
  started.push(explorer)
  for (const path of ['/api/tokenlist', '/api/tags']) {
    const response = await fetch(`${explorer.url}${path}`)
    expect(response.status).toBe(503)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.json()).toHaveProperty('error')
  }
})
