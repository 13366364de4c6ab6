import { sqliteDb } from '../src/spool/sqlite/engine.ts'
import { beforeAll, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { predictedAddresses } from '../src/devnet/deploy.ts'
import { SPOOL_FILE } from '../src/spool/sqlite/db.ts'
import { verifiedContract } from '../src/spool/verified.ts'
import { startNode } from './helpers/devChain.ts'
import { configDir, ROOT, runOnce, startStack } from './helpers/stack.ts'
import { waitFor } from './helpers/wait.ts'

const BINARY = join(ROOT, 'dist/stack')

// The compiled executable must run with no Bun and no node_modules: build it, then run it from
// an empty folder with a PATH that holds neither.
beforeAll(async () => {
  const build = await runOnce([process.execPath, 'build.ts'], [])
  if (build.code !== 0) throw new Error(`bun run build failed:\n${build.stdout}\n${build.stderr}`)
  expect(existsSync(BINARY)).toBe(true)
}, 120_000)

const bare = { PATH: '/usr/bin:/bin' }

test('the binary prints its version and usage', async () => {
  const { dir } = configDir()
  const version = await runOnce([BINARY], ['--version'], { cwd: dir, env: bare })
  expect(version.code).toBe(0)
  expect(version.stdout).toStartWith('stack ')
  const usage = await runOnce([BINARY], ['bogus'], { cwd: dir, env: bare })
  expect(usage.code).toBe(2)
})

test('the binary answers all four health routes with no-store, and stops on SIGTERM', async () => {
  const { dir, file } = configDir()
  const stack = await startStack([BINARY], ['start', '--config', file], { cwd: dir, env: bare })
  const { explorer, exchange, faucet, arcade } = stack.urls
  const expected: Array<[string, number]> = [
    [`${explorer}/api/health`, 200],
    [`${exchange}/health`, 200],
    [`${faucet}/health`, 200],
    [`${arcade}/api/ready`, 503],
    [`${exchange}/nope`, 404],
  ]
  for (const [url, status] of expected) {
    const response = await fetch(url)
    expect(response.status).toBe(status)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('content-type')).toStartWith('application/json')
  }
  const refused = await fetch(`${explorer}/api/stats`, { headers: { origin: 'https://evil.example' } })
  expect(refused.status).toBe(403)
  expect(await stack.stop()).toBe(0)
})

test('the binary alone serves the registry it was built with, and says once that the folder is absent', async () => {
  const { dir, file } = configDir('[registry]\nrefreshSeconds = 1\n')
  const stack = await startStack([BINARY], ['start', '--config', file], { cwd: dir, env: bare })
  const tokenlist = () => fetch(`${stack.urls.explorer}/api/tokenlist`)
  await waitFor(async () => (await tokenlist()).status === 200, 'a first good copy')
  expect(await (await tokenlist()).text()).toBe(readFileSync(join(ROOT, 'registry/testnet/tokenlist.json'), 'utf8'))
  // Two refreshes more on the registry's real one-second timer, which must say nothing again.
  await Bun.sleep(2500)
  const registryLines = stack.lines.filter((line) => line.component === 'registry' && (line.level as number) >= 40)
  expect(registryLines.map((line) => line.msg)).toEqual(['the registry folder does not exist: the registry built into stack serves until it does'])
  expect(await stack.stop()).toBe(0)
})

test('the binary validates the registry with the same validator', async () => {
  const { dir } = configDir()
  const { code, stdout } = await runOnce([BINARY], ['validate', join(ROOT, 'registry')], { cwd: dir, env: bare })
  expect(code).toBe(0)
  expect(stdout).toContain('checked testnet: tokenlist.json (3 tokens)')
})

test('the binary refuses a bad config before opening a port', async () => {
  const { dir, file } = configDir('[exchange]\nport = "4020"\n')
  const { code, stderr, stdout } = await runOnce([BINARY], ['--config', file], { cwd: dir, env: bare })
  expect(code).toBe(1)
  expect(stderr).toContain('exchange.port = "4020": expected')
  expect(stdout).not.toContain('listening')
})

test("the binary's spool worker follows a real node", async () => {
  const anvil = await startNode()
  try {
    await anvil.mine(3)
    const { dir, file } = configDir(`[chain]\nrpc = "${anvil.rpcUrl}"\nws = "${anvil.wsUrl}"\n`)
    const stack = await startStack([BINARY], ['start', '--config', file], { cwd: dir, env: bare })
    const health = async () => (await (await fetch(`${stack.urls.exchange}/health`)).json()) as { spoolHeadBlock: number | null }
    await waitFor(async () => (await health()).spoolHeadBlock === 3, 'the spool to reach block 3')
    expect(await stack.stop()).toBe(0)
    expect(existsSync(join(dir, 'data', 'spool.db'))).toBe(true)
  } finally {
    await anvil.stop()
  }
})

test("the binary's stack dev verifies the stack's own contracts with the sources built into it", async () => {
  const { dir, file } = configDir(`[dev]\nport = 0\n`)
  // anvil from the checkout, and nothing else of it: the sources come from the binary.
  const stack = await startStack([BINARY], ['dev', '--config', file], { cwd: dir, env: { PATH: `${join(ROOT, 'node_modules/.bin')}:/usr/bin:/bin` }, timeoutMs: 60_000 })
  try {
    const said = stack.lines.find((line) => line.msg === "the stack's own contracts verified")
    expect(said?.contracts).toBe(26)
    const db = new Database(join(dir, 'data', SPOOL_FILE), { readonly: true })
    const faucet = await verifiedContract(sqliteDb(db), predictedAddresses().Faucet)
    db.close()
    expect(faucet?.match).toBe('exact_match')
    expect(faucet?.details.sources['Faucet.sol']).toBe(readFileSync(join(ROOT, 'contracts/Faucet.sol'), 'utf8'))
  } finally {
    // The runtime file is written once the stop is arranged: a signal before it would kill the process outright.
    await waitFor(async () => existsSync(join(dir, 'data', 'runtime.json')), 'the runtime file')
    expect(await stack.stop()).toBe(0)
  }
}, 90_000)
