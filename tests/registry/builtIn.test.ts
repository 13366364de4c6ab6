import { afterAll, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseConfig } from '../../src/config/load.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import type { Listening } from '../../src/http/serve.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { ROOT } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// A config file outside the checkout keeps the default registry.source, `registry` beside the
// file, where there is no folder: the registry stack was built with (run from source, this
// checkout's registry/) serves in its place, and the log says so once, not at every refresh.

const BX = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ABSENT = 'the registry folder does not exist: the registry built into stack serves until it does'
const BACK = 'the registry folder exists: it is read from now on'

const work = mkdtempSync(join(tmpdir(), 'stack-builtin-registry-'))
const file = join(work, 'stack.toml')
const toml = '[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[registry]\nrefreshSeconds = 1\n'
writeFileSync(file, toml)
const context = { ...testContext(toml), config: parseConfig(toml, file) }
// The explorer reads a spool; this test needs none of its rows, so it waits for a node that is not there.
const spool = await startSpool(context.config, spoolWiring(context.config), context.log)
let explorer: Listening | null = null
afterAll(async () => {
  await explorer?.stop().catch(() => {})
  await spool.stop()
  rmSync(work, { recursive: true, force: true })
})

const said = (message: string) => context.lines.filter((line) => line.msg === message)

test('with no registry folder beside the config file, the built-in registry is the first good copy, said once', async () => {
  expect(context.config.dataDir).toBe(join(work, 'data'))
  explorer = serveOnFreePort(createExplorerApp(context, spool), 'explorer')
  await waitFor(async () => (await fetch(`${explorer!.url}/api/tokenlist`)).status === 200, 'a first good copy')
  const served = readFileSync(join(ROOT, 'registry/testnet/tokenlist.json'), 'utf8')
  expect(await (await fetch(`${explorer.url}/api/tokenlist`)).text()).toBe(served)
  expect(await (await fetch(`${explorer.url}/api/tags`)).text()).toBe(readFileSync(join(ROOT, 'registry/testnet/tags.json'), 'utf8'))
  await waitFor(async () => (await fetch(`${explorer!.url}/api/tokenlogo/${BX}`)).status === 200, 'the logos')
  // Kept on disk like any good copy: the exchange index reads its verified marks there.
  expect(readFileSync(join(work, 'data/registry/testnet/tokenlist.json'), 'utf8')).toBe(served)

  // Three more refreshes: the folder is still absent, and nothing more is said (the refresh runs
  // on its real one-second timer and says nothing when nothing changed: only time shows that).
  await Bun.sleep(3500)
  const warned = said(ABSENT)
  expect(warned).toHaveLength(1)
  expect(warned[0]!.folder).toBe(join(work, 'registry'))
  expect(context.lines.filter((line) => line.component === 'registry' && (line.level as number) >= 40)).toHaveLength(1)
  expect(said('registry file unreadable; the previous copy stays')).toEqual([])

  // A folder made later is read from then on, said once too.
  cpSync(join(ROOT, 'registry'), join(work, 'registry'), { recursive: true, filter: (path) => !path.includes('node_modules') })
  await waitFor(() => said(BACK).length === 1, 'the folder read')
  // A refresh more on the real timer, which must not say it again.
  await Bun.sleep(1500)
  expect(said(BACK)).toHaveLength(1)
  expect(said(ABSENT)).toHaveLength(1)
  expect((await fetch(`${explorer.url}/api/tokenlist`)).status).toBe(200)
})
