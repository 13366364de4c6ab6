import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Subprocess } from 'bun'
import { FatalError } from '../errors.ts'
import { pollUntil } from '../time/poll.ts'
import { createRpc, RpcError } from './rpc.ts'

/** anvil could not be found or did not start; the message is one line for the operator. */
export class AnvilError extends FatalError {
  override name = 'AnvilError'
}

export type AnvilOptions = {
  host?: string
  /** 0 lets anvil pick a free port, which is read back from its output. */
  port?: number
  chainId?: number
  /** Interval mining in seconds; 0 mines one block per transaction. */
  blockTime?: number
  /** Extra command-line arguments. */
  args?: string[]
  /** How long to wait for the first answer. */
  startTimeoutMs?: number
}

export type Anvil = {
  rpcUrl: string
  wsUrl: string
  port: number
  process: Subprocess
  /** The folder anvil keeps its states in past those it holds in memory; removed when the node stops. */
  stateCache: string
  /** Stops the node and waits for it to exit. */
  stop: () => Promise<void>
}

const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': 'anvil-linux-amd64',
  'linux-arm64': 'anvil-linux-arm64',
  'darwin-x64': 'anvil-darwin-amd64',
  'darwin-arm64': 'anvil-darwin-arm64',
  'win32-x64': 'anvil-win32-amd64',
}

/**
 * The anvil executable: the platform binary that the npm package `@foundry-rs/anvil-linux-amd64`
 * installed, looked for in node_modules above the working directory, above this source file
 * (a checkout run with bun) and above the executable (dist/stack in a checkout), else `anvil` on
 * the PATH.
 */
export function findAnvil(cwd = process.cwd()): string {
  const platformPackage = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`]
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  if (platformPackage) {
    for (const start of [cwd, import.meta.dir, dirname(process.execPath)]) {
      for (let dir = start; ; dir = dirname(dir)) {
        const candidate = join(dir, 'node_modules', '@foundry-rs', platformPackage, 'bin', exe)
        if (existsSync(candidate)) return candidate
        if (dirname(dir) === dir) break
      }
    }
  }
  const onPath = Bun.which('anvil')
  if (onPath) return onPath
  throw new AnvilError('cannot find anvil: run `npm install` (it installs anvil on Linux x64) or put anvil on the PATH')
}

/** Starts anvil and resolves once it answers JSON-RPC. */
export async function startAnvil(options: AnvilOptions = {}): Promise<Anvil> {
  const { host = '127.0.0.1', port = 0, chainId = 78270, blockTime = 0, args = [], startTimeoutMs = 15_000 } = options
  // anvil writes the states it no longer holds in memory (up to thousands of blocks' worth, a
  // megabyte or more each on the dev chain) under ~/.foundry/anvil/tmp and never removes them,
  // not even on a clean exit: they go into a folder of ours instead, removed when the node stops.
  const stateCache = mkdtempSync(join(tmpdir(), 'stack-anvil-states-'))
  const argv = [findAnvil(), '--host', host, '--port', String(port), '--chain-id', String(chainId), '--cache-path', stateCache, ...args]
  if (blockTime > 0) argv.push('--block-time', String(blockTime))
  const removeStates = () => rmSync(stateCache, { recursive: true, force: true })

  const child = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
  // However this process ends (short of SIGKILL), the node it started ends with it, and its states go.
  const killOnExit = () => {
    child.kill('SIGKILL')
    removeStates()
  }
  process.on('exit', killOnExit)
  const stop = async () => {
    process.off('exit', killOnExit)
    child.kill('SIGTERM')
    await child.exited
    removeStates()
  }

  const listening = await readListening(child, startTimeoutMs).catch(async (error: Error) => {
    process.off('exit', killOnExit)
    child.kill('SIGKILL')
    await child.exited
    removeStates()
    throw error
  })
  const hostForUrl = host.includes(':') ? `[${host}]` : host
  const anvil: Anvil = {
    rpcUrl: `http://${hostForUrl}:${listening}`,
    wsUrl: `ws://${hostForUrl}:${listening}`,
    port: listening,
    process: child,
    stateCache,
    stop,
  }
  await waitForRpc(anvil.rpcUrl, startTimeoutMs).catch(async (error: Error) => {
    await stop()
    throw error
  })
  return anvil
}

/** Reads anvil's output until it says where it listens; a start failure carries its last words. */
async function readListening(child: Subprocess<'ignore', 'pipe', 'pipe'>, timeoutMs: number): Promise<number> {
  const decoder = new TextDecoder()
  let seen = ''
  const reader = child.stdout.getReader()
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      seen += decoder.decode(value, { stream: true })
      const match = /Listening on .*:(\d+)/.exec(seen)
      if (match) {
        // Keep draining stdout so a chatty node never blocks on a full pipe.
        void drain(reader)
        return Number(match[1])
      }
    }
  } finally {
    clearTimeout(timer)
  }
  const stderr = (await new Response(child.stderr).text()).trim()
  const reason = lastLine(stderr) || lastLine(seen) || `exited with code ${await child.exited}`
  if (/address already in use|Address in use/i.test(stderr)) throw new AnvilError(`anvil: the port is already in use (${reason})`)
  throw new AnvilError(`anvil did not start: ${reason}`)
}

async function drain(reader: { read: () => Promise<{ done: boolean }> }) {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The process went away; nothing left to read.
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.trim() ?? ''
}

/** Polls `eth_chainId` until the node answers (an error it answers with counts: it is up). */
export async function waitForRpc(rpcUrl: string, timeoutMs: number): Promise<void> {
  const rpc = createRpc(rpcUrl, { timeoutMs: 1000 })
  const answers = () =>
    rpc.call('eth_chainId').then(
      () => true,
      (error: unknown) => error instanceof RpcError, // anything else: not up yet
    )
  const { met } = await pollUntil(answers, (up) => up, { timeoutMs, intervalMs: 50 })
  if (!met) throw new AnvilError(`the node at ${rpcUrl} did not answer within ${timeoutMs} ms`)
}
