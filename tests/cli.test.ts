import { describe, expect, test } from 'bun:test'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pkg from '../package.json' with { type: 'json' }
import { startNode, type RunningNode } from './helpers/devChain.ts'
import { waitFor } from './helpers/wait.ts'
import { configDir, fromSource, ROOT, runOnce, startStack } from './helpers/stack.ts'

describe('usage', () => {
  test('--help prints the usage and exits 0', async () => {
    const { stdout, code } = await runOnce(fromSource, ['--help'])
    expect(code).toBe(0)
    expect(stdout).toContain('Usage:')
    expect(stdout).toContain('stack dev')
  })

  test('--version prints the version', async () => {
    const { stdout, code } = await runOnce(fromSource, ['--version'])
    expect(code).toBe(0)
    expect(stdout.trim()).toBe(`stack ${pkg.version}`)
  })

  test.each([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['--nope'], "Unknown option '--nope'"],
    [['start', 'extra'], "unexpected argument 'extra'"],
    [['start', '--config'], "Option '-c, --config <value>' argument missing"],
  ])('%p prints the usage and exits 2', async (args, message) => {
    const { stderr, stdout, code } = await runOnce(fromSource, args)
    expect(code).toBe(2)
    expect(stderr).toContain(message)
    expect(stderr).toContain('Usage:')
    expect(stdout).toBe('')
  })
})

describe('config errors stop the start before any port opens', () => {
  test('a bad key names the path, the value and what was expected', async () => {
    const { file } = configDir('[explorer]\nport = 99999\n[faucet]\nhots = "x"\n')
    const { stderr, stdout, code } = await runOnce(fromSource, ['start', '--config', file])
    expect(code).toBe(1)
    expect(stderr).toContain('explorer.port = 99999: expected an integer port from 1 to 65535')
    expect(stderr).toContain('faucet.hots: unknown key')
    expect(stdout).not.toContain('listening')
  })

  test('TOML that does not parse', async () => {
    const { file } = configDir('[explorer\n')
    const { stderr, code } = await runOnce(fromSource, ['--config', file])
    expect(code).toBe(1)
    expect(stderr).toContain('not valid TOML')
  })

  test('a config file that does not exist', async () => {
    const { stderr, code } = await runOnce(fromSource, ['--config', '/nonexistent/stack.toml'])
    expect(code).toBe(1)
    expect(stderr).toContain('/nonexistent/stack.toml: cannot read the file: it does not exist')
  })
})

describe('running', () => {
  test('a port in use is one line naming the service and the port; the other ports close again', async () => {
    const squatter = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('taken') })
    try {
      const { file } = configDir(`[arcade]\nport = ${squatter.port}\n`)
      const { stderr, stdout, code } = await runOnce(fromSource, ['--config', file])
      expect(code).toBe(1)
      expect(stderr.trim()).toBe(`stack: arcade: port ${squatter.port} on 127.0.0.1 is already in use`)
      const opened = stdout.split('\n').filter((line) => line.includes('"listening"')).map((line) => JSON.parse(line).url as string)
      expect(opened).toHaveLength(3)
      for (const url of opened) await expect(fetch(url)).rejects.toThrow()
    } finally {
      squatter.stop(true)
    }
  })

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`start answers on all four services and stops cleanly on ${signal}`, async () => {
      const { file } = configDir()
      const stack = await startStack(fromSource, ['start', '--config', file])
      const { explorer, exchange, faucet, arcade } = stack.urls
      for (const url of [`${explorer}/api/health`, `${exchange}/health`, `${exchange}/api/health`, `${faucet}/health`, `${arcade}/api/health`]) {
        const response = await fetch(url)
        expect(response.status).toBe(200)
        expect(response.headers.get('cache-control')).toBe('no-store')
      }
      expect(await stack.stop(signal)).toBe(0)
      expect(stack.lines.map((line) => line.msg)).toContain('stopped')
      await expect(fetch(`${explorer}/api/health`)).rejects.toThrow()
    })
  }
})

test('every request has its log line, the last ones too when the stack stops', async () => {
  const { file } = configDir()
  const stack = await startStack(fromSource, ['start', '--config', file])
  const { explorer, exchange, faucet, arcade } = stack.urls
  const urls = [`${explorer}/api/health`, `${explorer}/api/nope`, `${exchange}/health`, `${faucet}/health`, `${arcade}/api/health`]
  const asked = 1000
  let next = 0
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < asked) await (await fetch(urls[next++ % urls.length]!)).arrayBuffer()
    }),
  )
  // Stopped at once: the lines still in the buffer are written on the way out.
  expect(await stack.stop('SIGTERM')).toBe(0)
  const requests = stack.lines.filter((line) => line.msg === 'request')
  expect(requests).toHaveLength(asked)
  // The explorer's per-client minute (429) answers some of its share; each has its line all the same.
  expect(requests.filter((line) => line.path === '/api/nope' && (line.status === 404 || line.status === 429))).toHaveLength(asked / urls.length)
})

describe('the spool under stack start', () => {
  test('follows the node, and a restart against another chain is refused before any port opens', async () => {
    const first = await startNode()
    const second = await startNode({ args: ['--timestamp', '1700000000'] })
    try {
      await first.mine(5)
      const chainToml = (anvil: RunningNode) => `[chain]\nrpc = "${anvil.rpcUrl}"\nws = "${anvil.wsUrl}"\n`
      const { dir, file } = configDir(chainToml(first))
      const stack = await startStack(fromSource, ['start', '--config', file], { cwd: dir })
      const health = async () => (await (await fetch(`${stack.urls.exchange}/health`)).json()) as { spoolHeadBlock: number | null }
      await waitFor(async () => (await health()).spoolHeadBlock === 5, "the spool to reach block 5")
      expect(await stack.stop()).toBe(0)

      writeFileSync(file, readFileSync(file, 'utf8').replace(chainToml(first), chainToml(second)))
      const { code, stderr, stdout } = await runOnce(fromSource, ['start', '--config', file], { cwd: dir })
      expect(code).toBe(1)
      expect(stderr).toMatch(/holds chain 78270 \(genesis 0x[0-9a-f]{64}\), but the node at .* is chain 78270 \(genesis 0x[0-9a-f]{64}\)/)
      expect(stdout).not.toContain('"listening"')
    } finally {
      await first.stop()
      await second.stop()
    }
  })
})

describe('stack validate', () => {
  test('checks ./registry by default and a given folder otherwise, with the validator exit codes', async () => {
    const ok = await runOnce(fromSource, ['validate'])
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('OK: no problems')

    const broken = mkdtempSync(join(tmpdir(), 'stack-validate-'))
    cpSync(join(ROOT, 'registry'), broken, { recursive: true })
    const list = join(broken, 'testnet/tokenlist.json')
    writeFileSync(list, readFileSync(list, 'utf8').replace('"symbol": "WETH"', '"symbol": "BX"'))
    const failed = await runOnce(fromSource, ['validate', broken, '--network', 'testnet'])
    expect(failed.code).toBe(1)
    expect(failed.stdout).toContain('symbol BX repeats tokens[0]')

    const usage = await runOnce(fromSource, ['validate', '--bogus'])
    expect(usage.code).toBe(2)
  })
})

describe('npm test on a machine without Chromium', () => {
  const script = join(ROOT, 'tests/chromium.sh')

  test('stops at once with one line saying what to run', async () => {
    const { code, stdout, stderr } = await runOnce(['sh', script], [], { env: { CHROMIUM_PATH: '/nonexistent/chromium' } })
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toEqual([
      "npm test: the browser tests need Chromium at /nonexistent/chromium: run 'sudo apt-get install -y chromium' (or set CHROMIUM_PATH), then npm test again",
    ])
  })

  test('goes on when the browser is there', async () => {
    const { code, stderr } = await runOnce(['sh', script], [], { env: { CHROMIUM_PATH: process.execPath } })
    expect(code).toBe(0)
    expect(stderr).toBe('')
  })
})
