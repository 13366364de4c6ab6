import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { devNode, type DevNode } from '../helpers/devChain.ts'
import { sampleValue, scrape } from '../helpers/prometheus.ts'
import { configDir, fromSource, ROOT, runOnce, startReadyStack, type ReadyStack } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'

// One `stack dev` for the whole file, as a CI job runs it: started with --json, asked with
// status, scraped at /metrics, reset while it runs, and asked again once stopped. Its spool
// follows reorganisations of at most 5 blocks, so a reset reaches far deeper than that.

type Body = Record<string, any>
let stack: ReadyStack
let dir: string
let file: string
let node: DevNode
const url = (service: string) => stack.status.services[service].url as string
const get = async (address: string): Promise<Body> => (await fetch(address)).json() as Promise<Body>
const cli = (...args: string[]) => runOnce(fromSource, [...args, '--config', file], { cwd: dir })

beforeAll(async () => {
  ;({ dir, file } = configDir(`[dev]\nport = 0\n[spool]\nmaxReorgDepth = 5\n[registry]\nsource = "${ROOT}/registry"\n`))
  stack = await startReadyStack(fromSource, ['dev', '--config', file], { cwd: dir })
  node = devNode(stack.status.rpcUrl)
}, 90_000)
afterAll(async () => {
  if (stack?.child.exitCode === null) await stack.stop()
})

describe('stack dev --json and stack status', () => {
  test('dev --json prints one line once ready: the URLs, the chain, the contracts, each service at the head', () => {
    const { status } = stack
    expect(status).toMatchObject({ running: true, mode: 'dev', chainId: 78270, healthy: true, faucet: { publicDevKey: true, operator: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } })
    expect(status.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(status.wsUrl).toBe(status.rpcUrl.replace('http', 'ws'))
    expect(status.contracts.BX).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3')
    expect(Object.keys(status.contracts)).toHaveLength(24)
    expect(status.services.explorer).toMatchObject({ healthy: true, pages: `${url('explorer')}/`, api: `${url('explorer')}/api` })
    for (const service of ['explorer', 'exchange', 'faucet', 'arcade', 'etherscan']) {
      expect(status.services[service].healthy).toBe(true)
      expect(status.services[service].lagBlocks).toBeLessThanOrEqual(1)
    }
    expect(status.services.arcade.ready).toBe(true)
    expect(status.snapshot.block).toBeGreaterThan(100)
    // The log went to stderr, so stdout held nothing else.
    expect(stack.log().some((line) => line.includes('"msg":"listening"'))).toBe(true)
  })

  test('status --json and --env say the same, and exit 0', async () => {
    const json = await cli('status', '--json')
    expect(json.code).toBe(0)
    const status = JSON.parse(json.stdout)
    expect(status).toMatchObject({ pid: stack.child.pid, rpcUrl: stack.status.rpcUrl, contracts: stack.status.contracts, healthy: true })

    const env = await cli('status', '--env')
    expect(env.code).toBe(0)
    const vars = Object.fromEntries(env.stdout.trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]))
    expect(vars).toMatchObject({
      STACK_RPC_URL: stack.status.rpcUrl,
      STACK_WS_URL: stack.status.wsUrl,
      STACK_CHAIN_ID: '78270',
      STACK_EXPLORER_API_URL: `${url('explorer')}/api`,
      STACK_EXPLORER_PAGES_URL: `${url('explorer')}/`,
      STACK_EXCHANGE_URL: url('exchange'),
      STACK_FAUCET_URL: url('faucet'),
      STACK_ARCADE_WS_URL: `${url('arcade').replace('http', 'ws')}/ws`,
      STACK_FAUCET_PUBLIC_DEV_KEY: 'true',
      STACK_CONTRACT_BX: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      STACK_CONTRACT_UNISWAP_V2_FACTORY: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
      STACK_HEALTHY: 'true',
      STACK_EXPLORER_HEALTHY: 'true',
    })
    // Each line is one a shell sources as it is.
    const shell = Bun.spawnSync(['sh', '-c', 'set -a; . /dev/stdin; printf "%s %s" "$STACK_CONTRACT_WETH9" "$STACK_EXPLORER_URL"'], { stdin: new TextEncoder().encode(env.stdout) })
    expect(shell.stdout.toString()).toBe(`0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512 ${url('explorer')}`)
  })
})

describe('/metrics', () => {
  test('every service answers Prometheus text with its own metrics and the spool', async () => {
    const own = { explorer: 'stack_explorer_live_streams', exchange: 'stack_http_requests_total', faucet: 'stack_faucet_drips_total', arcade: 'stack_arcade_sockets' }
    for (const [service, name] of Object.entries(own)) {
      const families = await scrape(url(service))
      expect(families.has(name)).toBe(true)
      expect(families.get('stack_spool_head_block')?.type).toBe('GAUGE')
      expect(sampleValue(families, 'stack_stream_lag_blocks', { stream: 'v2' })).toBeGreaterThanOrEqual(0)
      expect(families.get('stack_spool_fetch_seconds')?.type).toBe('HISTOGRAM')
      expect(families.has('process_resident_memory_bytes')).toBe(true)
    }
    // Outside /api/, and behind the same origin rules.
    expect((await fetch(`${url('explorer')}/metrics`, { headers: { origin: 'https://evil.example' } })).status).toBe(403)
    expect((await fetch(`${url('explorer')}/api/metrics`)).status).toBe(404)
  })

  test('moves when traffic and blocks do', async () => {
    const before = await scrape(url('explorer'))
    const requests = (families: typeof before) => sampleValue(families, 'stack_http_requests_total', { route: '/api/tx/:hash', status: '404' })
    const head = sampleValue(before, 'stack_spool_head_block')
    for (let count = 0; count < 3; count++) await fetch(`${url('explorer')}/api/tx/0x${String(count).repeat(64)}`)
    await node.mine(2)
    const batches = sampleValue(before, 'stack_spool_batch_blocks')
    await waitFor(async () => {
      const now = await scrape(url('explorer'))
      return sampleValue(now, 'stack_spool_head_block') >= head + 2 && sampleValue(now, 'stack_spool_batch_blocks') > batches
    }, 'the spool head and its batches to move in the metrics')
    const after = await scrape(url('explorer'))
    expect(requests(after) - (Number.isNaN(requests(before)) ? 0 : requests(before))).toBe(3)
    expect(sampleValue(after, 'stack_spool_batch_blocks')).toBeGreaterThan(sampleValue(before, 'stack_spool_batch_blocks'))
    // No client-written path became a label.
    expect(JSON.stringify([...after.values()])).not.toContain('0x000000')

    const arcade = await scrape(url('arcade'))
    expect(sampleValue(arcade, 'stack_arcade_ready')).toBe(1)
    expect(sampleValue(arcade, 'stack_arcade_mini_blocks_total', { state: 'applied' })).toBeGreaterThan(0)
  })
})

describe('stack reset', () => {
  test('takes the chain back to right after deploy and seed, deeper than maxReorgDepth, and every service follows', async () => {
    const resetBlock = stack.status.snapshot.block as number
    const seeded = await get(`${url('explorer')}/api/stats`)
    const swaps = (await get(`${url('exchange')}/swaps`)).swaps.length

    // Activity after the reset point: a drip (counted by the faucet's quotas) and blocks, far past maxReorgDepth.
    const address = privateKeyToAccount(generatePrivateKey()).address
    const drip = await fetch(`${url('faucet')}/drip`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address }) })
    expect(drip.status).toBe(200)
    const { hash } = (await drip.json()) as { hash: string }
    await node.mine(12)
    const far = await node.head()
    await waitFor(async () => (await get(`${url('explorer')}/api/stats`)).indexedBlock >= far, 'the spool past the drip')
    expect((await fetch(`${url('explorer')}/api/tx/${hash}`)).status).toBe(200)
    const paid = await scrape(url('faucet'))
    expect(sampleValue(paid, 'stack_faucet_drips_total', { outcome: 'paid' })).toBe(1)
    expect(sampleValue(paid, 'stack_faucet_quota_used', { quota: 'global' })).toBe(1)

    const reset = await cli('reset')
    expect(reset.stderr).toBe('')
    expect(reset.code).toBe(0)
    const printed = /back at block (\d+).*head (\d+)/.exec(reset.stdout)
    expect(Number(printed![1])).toBe(resetBlock)
    const head = Number(printed![2])
    expect(head).toBeGreaterThan(resetBlock)
    expect(head).toBeLessThan(far)

    // Every service is on the chain as it is now, at once.
    const stats = await get(`${url('explorer')}/api/stats`)
    expect(stats.indexedBlock).toBeGreaterThanOrEqual(resetBlock)
    expect(stats.indexedBlock).toBeLessThanOrEqual(await node.head())
    // The explorer's derived tables on the new chain, within a pass of its head: a stream that has
    // caught up sleeps two seconds between passes, and a block comes every second.
    expect(stats.derivedLag).toBeLessThanOrEqual(2)
    // The explorer's tallies stand as they did at the reset point.
    expect(stats.transactions).toBe(seeded.transactions)
    const health = await get(`${url('exchange')}/health`)
    expect(health.spoolHeadBlock).toBeGreaterThanOrEqual(stats.indexedBlock)
    expect(health.spoolHeadBlock).toBeLessThan(far)
    // A stream that has caught up sleeps two seconds between passes, and a block comes every second.
    expect(health.streams.cl.lagBlocks).toBeLessThanOrEqual(2)
    expect((await get(`${url('exchange')}/swaps`)).swaps).toHaveLength(swaps)
    // A transaction's answer is kept a few seconds (docs/explorer.md); then the drip is gone from the explorer too.
    await waitFor(async () => (await fetch(`${url('explorer')}/api/tx/${hash}`)).status === 404, 'the drip gone from the explorer', 5000)
    const arcade = await get(`${url('arcade')}/api/stats`)
    expect(arcade.head.block).toBeGreaterThan(resetBlock)
    expect((await fetch(`${url('arcade')}/api/ready`)).status).toBe(200)
    expect((await get(`${url('faucet')}/status?address=${address}`)).canDrip).toBe(true)

    // The faucet's quota journal keeps its counts: a reset chain is not a new day.
    const after = await scrape(url('faucet'))
    expect(sampleValue(after, 'stack_faucet_quota_used', { quota: 'global' })).toBe(1)
    expect(sampleValue(after, 'stack_faucet_quota_used', { quota: 'all_time' })).toBe(1)
    expect(sampleValue(await scrape(url('explorer')), 'stack_spool_reorganisation_depth_blocks')).toBeGreaterThanOrEqual(1)

    // The snapshot a revert used up was replaced: the chain can be reset again.
    await node.mine(3)
    const again = await cli('reset')
    expect(again.code).toBe(0)
    expect(again.stdout).toContain(`back at block ${resetBlock}`)
    expect(stack.child.exitCode).toBeNull()
  }, 90_000)
})

describe('when nothing runs', () => {
  test('status and reset exit 3, also over a runtime file whose process is gone', async () => {
    expect(await stack.stop()).toBe(0)
    for (const args of [['status'], ['status', '--json'], ['status', '--env'], ['reset']]) {
      const { code, stdout, stderr } = await cli(...args)
      expect(code).toBe(3)
      expect(stdout).toBe('')
      expect(stderr).toContain('no stack is running')
    }
    const stale = configDir()
    mkdirSync(join(stale.dir, 'data'))
    const gone = Bun.spawnSync(['true']).pid
    writeFileSync(join(stale.dir, 'data', 'runtime.json'), JSON.stringify({ ...stack.status, pid: gone, services: {} }))
    const { code, stderr } = await runOnce(fromSource, ['status', '--config', stale.file], { cwd: stale.dir })
    expect(code).toBe(3)
    expect(stderr).toContain(`process ${gone}`)
  })

  test('usage errors exit 2', async () => {
    for (const args of [['status', '--json', '--env'], ['reset', '--json'], ['dev', '--env']]) expect((await runOnce(fromSource, args)).code).toBe(2)
  })
})
