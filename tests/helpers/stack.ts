import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { linesOf } from './lines.ts'

export const ROOT = resolve(import.meta.dir, '../..')

/** The listeners a stack opens: the four services and the Etherscan-compatible API. */
const SERVICES = 5

/** How to run the CLI: from source with the Bun running the tests, or a compiled binary. */
export const fromSource = [process.execPath, join(ROOT, 'src/main.ts')]

/** A folder with a stack.toml in it (every service on a free port unless the text says otherwise). */
export function configDir(toml = ''): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'stack-cli-'))
  const file = join(dir, 'stack.toml')
  const freePorts = ['explorer', 'exchange', 'faucet', 'arcade', 'etherscan']
    .filter((name) => !toml.includes(`[${name}]`))
    .map((name) => `[${name}]\nport = 0\n`)
    .join('')
  writeFileSync(file, `[log]\nlevel = "info"\n${toml}\n${freePorts}`)
  return { dir, file }
}

/** Runs the CLI to completion. */
export async function runOnce(command: string[], args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = Bun.spawn([...command, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { stdout, stderr, code }
}

export type RunningStack = {
  child: Bun.Subprocess<'ignore', 'pipe', 'pipe'>
  /** Every JSON log line seen so far. */
  lines: Record<string, unknown>[]
  /** The base URL of each service, from its `listening` line. */
  urls: Record<string, string>
  stderr: () => Promise<string>
  stop: (signal?: 'SIGTERM' | 'SIGINT') => Promise<number>
}

/**
 * Starts the CLI and resolves once every listener says it listens: `listeners` of them (all five
 * unless told; an instance on a database may open fewer), and once a line `until` looks for has
 * been logged, when given.
 */
export async function startStack(
  command: string[],
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; listeners?: number; until?: (line: Record<string, unknown>) => boolean } = {},
): Promise<RunningStack> {
  const { listeners = SERVICES, until = () => true } = options
  const child = Bun.spawn([...command, ...args], {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const lines: Record<string, unknown>[] = []
  const urls: Record<string, string> = {}
  const stderrText = new Response(child.stderr).text()
  let announce: () => void = () => {}
  const allListening = new Promise<void>((resolve) => (announce = resolve))
  // One reader for the life of the process: every line is kept, and the pipe never fills.
  let seen = false
  const reading = (async () => {
    for await (const line of linesOf(child.stdout)) {
      if (!line.trim()) continue
      const parsed = JSON.parse(line) as Record<string, unknown>
      lines.push(parsed)
      if (parsed.msg === 'listening') urls[parsed.service as string] = parsed.url as string
      seen ||= until(parsed)
      if (Object.keys(urls).length === listeners && seen) announce()
    }
    announce()
  })()
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000)
  await allListening
  clearTimeout(timer)
  if (Object.keys(urls).length < listeners || !seen) {
    throw new Error(`the stack did not start (exit ${await child.exited}): ${await stderrText}`)
  }
  return {
    child,
    lines,
    urls,
    stderr: () => stderrText,
    stop: async (signal = 'SIGTERM') => {
      child.kill(signal)
      const code = await child.exited
      await reading
      return code
    },
  }
}

export type ReadyStack = {
  child: Bun.Subprocess<'ignore', 'pipe', 'pipe'>
  /** The one JSON line `--json` prints on stdout once the stack is ready: the status. */
  status: Record<string, any>
  /** Every line of the log, which `--json` sends to stderr. */
  log: () => string[]
  stop: (signal?: 'SIGTERM' | 'SIGINT') => Promise<number>
}

/** Runs `stack dev --json` (or start) and resolves with the status it prints once ready. */
export async function startReadyStack(command: string[], args: string[], options: { cwd?: string; timeoutMs?: number } = {}): Promise<ReadyStack> {
  const child = Bun.spawn([...command, ...args, '--json'], { cwd: options.cwd ?? ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const logLines: string[] = []
  const reading = (async () => {
    for await (const line of linesOf(child.stderr)) logLines.push(line)
  })()
  const stdout: string[] = []
  const outReading = (async () => {
    for await (const line of linesOf(child.stdout)) stdout.push(line)
  })()
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000)
  while (stdout.length === 0 && child.exitCode === null) await Bun.sleep(20)
  clearTimeout(timer)
  if (stdout.length === 0) {
    // Every line it wrote, read to the end: the one that says why comes last, after the exit.
    const code = await child.exited
    await reading
    throw new Error(`the stack did not get ready (exit ${code}): ${logLines.filter((line) => !line.includes('"level":30')).slice(-10).join('\n')}`)
  }
  return {
    child,
    status: JSON.parse(stdout[0]!),
    log: () => logLines,
    stop: async (signal = 'SIGTERM') => {
      child.kill(signal)
      const code = await child.exited
      await Promise.all([reading, outReading])
      if (stdout.length !== 1) throw new Error(`stdout had ${stdout.length} lines, not the one status line`)
      return code
    },
  }
}
