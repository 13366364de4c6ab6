import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { waitForRpc } from '../../src/chain/anvil.ts'

/** A Hardhat node this process started, and how to reach it. */
export type HardhatNode = { rpcUrl: string; wsUrl: string; port: number; stop: () => Promise<void> }

const FIXTURE = join(import.meta.dir, '..', 'fixtures', 'hardhat')

/**
 * Hardhat's node (chain 78270, the devDependency `hardhat`) on a free loopback port, as a user
 * would start it with `npx hardhat node`: HTTP and WebSocket JSON-RPC on one port. It runs
 * offline and leaves nothing behind: Hardhat is told it runs in CI (no telemetry, no banner
 * fetched, no update check), and the files it keeps per user (an analytics id, its variables)
 * go to a folder of its own, removed when it stops.
 */
export async function startHardhat({ startTimeoutMs = 30_000 } = {}): Promise<HardhatNode> {
  const packageDir = dirname(Bun.resolveSync('hardhat/package.json', import.meta.dir))
  const bin = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { bin: { hardhat: string } }).bin.hardhat
  const home = mkdtempSync(join(tmpdir(), 'stack-hardhat-'))
  // Hardhat is written for Node; Bun runs it too where no Node is installed.
  const runtime = Bun.which('node') ?? process.execPath
  const child = Bun.spawn([runtime, join(packageDir, bin), '--config', join(FIXTURE, 'hardhat.config.cjs'), 'node', '--hostname', '127.0.0.1', '--port', '0'], {
    cwd: FIXTURE,
    env: {
      ...process.env,
      CI: 'true',
      HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true',
      XDG_CONFIG_HOME: home,
      XDG_CACHE_HOME: home,
      XDG_DATA_HOME: home,
    },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  })
  // What it says on stderr, kept for a start that fails (read as it comes, so the pipe never fills).
  const stderr = new Response(child.stderr).text()
  const killOnExit = () => child.kill('SIGKILL')
  process.on('exit', killOnExit)
  const stop = async () => {
    process.off('exit', killOnExit)
    child.kill('SIGTERM')
    await child.exited
    rmSync(home, { recursive: true, force: true })
  }
  try {
    const port = await listeningPort(child.stdout, startTimeoutMs)
    const node = { rpcUrl: `http://127.0.0.1:${port}`, wsUrl: `ws://127.0.0.1:${port}`, port, stop }
    await waitForRpc(node.rpcUrl, startTimeoutMs)
    return node
  } catch (error) {
    child.kill('SIGKILL')
    await stop()
    const said = (await stderr).trim()
    throw new Error(`the Hardhat node did not start: ${(error as Error).message}${said ? `\n${said}` : ''}`)
  }
}

/** Reads the node's output until it says where it listens, then keeps draining it (it logs every call). */
async function listeningPort(stdout: ReadableStream<Uint8Array>, timeoutMs: number): Promise<number> {
  const reader = stdout.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  const found = (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) throw new Error('it exited before it listened')
      seen += decoder.decode(value, { stream: true })
      const match = /JSON-RPC server at http:\/\/[^:]+:(\d+)/.exec(seen)
      if (!match) continue
      void (async () => {
        while (!(await reader.read()).done);
      })().catch(() => {})
      return Number(match[1])
    }
  })()
  found.catch(() => {})
  let timer: Timer | undefined
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)))
  try {
    return await Promise.race([found, timeout])
  } finally {
    clearTimeout(timer)
  }
}
