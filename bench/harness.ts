// The bench harness: what every bench measures with and prints through. Percentiles and the
// table are computed and printed here only; HTTP load comes from wrk (Debian's package) in a
// process of its own, and an HTTP ceiling is a bare Bun.serve in another process returning the
// same bytes and headers as the route, loaded by the same wrk in the same run. A stack under
// measure runs in a process of its own too (`spawnStack`), and every child a bench starts and
// every folder it makes is ended or removed with the bench, on failure, Ctrl-C and SIGTERM as
// well (`own`, `scratchDir`).
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Subprocess } from 'bun'
import { bufferedLines, createLogger, type Logger } from '../src/log.ts'
import { linesOf } from '../tests/helpers/lines.ts'
import { percentile } from '../tests/helpers/percentile.ts'

// ---------------------------------------------------------------------------------------------
// Samples and tables

export type Summary = { count: number; mean: number; p50: number; p95: number; p99: number; max: number }

/** Count, mean and percentiles of `samples` (in any order). */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b)
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1)
  return { count: sorted.length, mean, p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN }
}

/** How the tables write numbers: whole counts with separators, milliseconds with two decimals, a ratio with two. */
export const fmt = {
  count: (value: number) => Math.round(value).toLocaleString('en'),
  ms: (value: number) => value.toFixed(2),
  ratio: (part: number, whole: number) => (part / whole).toFixed(2),
}

/** Prints a markdown table under a title line, with notes below it. */
export function printTable(title: string, header: string[], rows: Array<Array<string | number>>, notes: string[] = []): void {
  const cells = rows.map((row) => row.map(String))
  const widths = header.map((name, column) => Math.max(name.length, ...cells.map((row) => (row[column] ?? '').length)))
  const line = (row: string[]) => `| ${widths.map((width, column) => (row[column] ?? '').padEnd(width)).join(' | ')} |`
  const out = [`\n${title}\n`, line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...cells.map(line)]
  if (notes.length > 0) out.push('', ...notes)
  console.log(out.join('\n'))
}

/** Runs `total` tasks, `width` at a time; gives each task's duration (ms) and the wall time (s). */
export async function runConcurrently(total: number, width: number, task: (index: number) => Promise<void>): Promise<{ durations: number[]; seconds: number }> {
  const durations: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: Math.min(width, total) }, async () => {
      while (next < total) {
        const index = next++
        const at = performance.now()
        await task(index)
        durations.push(performance.now() - at)
      }
    }),
  )
  return { durations, seconds: (performance.now() - started) / 1000 }
}

// ---------------------------------------------------------------------------------------------
// HTTP load with wrk

/** wrk on this machine: /usr/bin/wrk or `wrk` on the PATH; without it the bench stops in one line. */
export function findWrk(): string {
  const found = Bun.which('wrk') ?? Bun.which('wrk', { PATH: '/usr/bin' })
  if (found) return found
  console.error('this bench loads with wrk, which is not installed: apt-get install wrk')
  process.exit(1)
}

export type LoadOptions = {
  connections: number
  seconds: number
  /** wrk threads; 2 by default. */
  threads?: number
  /** An unmeasured run first, so both servers are warm; 1 s by default. */
  warmupSeconds?: number
}

export type LoadResult = { requests: number; perSecond: number; p50: number; p99: number; max: number; non2xx: number; socketErrors: number }

const WRK_SCRIPT = join(import.meta.dir, 'wrk.lua')

/** Loads `base` with wrk for `options.seconds`, cycling through `paths`; latencies in ms, from wrk's histogram. */
export async function wrkLoad(base: string, paths: string[], options: LoadOptions): Promise<LoadResult> {
  const { connections, seconds, threads = 2, warmupSeconds = 1 } = options
  const dir = scratchDir('wrk')
  const pathsFile = join(dir, 'paths')
  writeFileSync(pathsFile, `${paths.join('\n')}\n`)
  const run = async (duration: number) => {
    const argv = [findWrk(), '-t', String(Math.min(threads, connections)), '-c', String(connections), '-d', `${duration}s`, '--timeout', '10s', '-s', WRK_SCRIPT, `${base}${paths[0]}`]
    const child = own(Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...(paths.length > 1 ? { BENCH_PATHS: pathsFile } : {}) } }))
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
    const line = stdout.split('\n').find((text) => text.startsWith('BENCH '))
    if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}): ${stderr.trim() || stdout.trim()}`)
    return JSON.parse(line.slice(6)) as { requests: number; durationUs: number; p50Us: number; p99Us: number; maxUs: number; non2xx: number; socketErrors: number }
  }
  try {
    if (warmupSeconds > 0) await run(warmupSeconds)
    const result = await run(seconds)
    return {
      requests: result.requests,
      perSecond: result.requests / (result.durationUs / 1e6),
      p50: result.p50Us / 1000,
      p99: result.p99Us / 1000,
      max: result.maxUs / 1000,
      non2xx: result.non2xx,
      socketErrors: result.socketErrors,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One answer as the route gave it: what the ceiling gives back for the same path. */
export type Recorded = { path: string; status: number; headers: Array<[string, string]>; body: string }

/** Headers the server writes itself, so the ceiling's server writes its own. */
const OWN_HEADERS = new Set(['date', 'content-length', 'transfer-encoding', 'connection', 'keep-alive'])

/** Asks `base` once for each path, keeping status, headers and bytes. */
export async function record(base: string, paths: string[]): Promise<Recorded[]> {
  const recorded: Recorded[] = []
  for (const path of new Set(paths)) {
    const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity' } })
    const body = Buffer.from(await response.arrayBuffer())
    const headers = [...response.headers].filter(([name]) => !OWN_HEADERS.has(name.toLowerCase()))
    recorded.push({ path, status: response.status, headers, body: body.toString('base64') })
  }
  return recorded
}

/** Runs `use` against a ceiling process serving `recorded`, and stops it after. */
export async function withCeiling<T>(recorded: Recorded[], use: (base: string) => Promise<T>): Promise<T> {
  const dir = scratchDir('ceiling')
  const file = join(dir, 'answers.json')
  writeFileSync(file, JSON.stringify(recorded))
  const child = own(Bun.spawn([process.execPath, join(import.meta.dir, 'ceiling.ts'), file], { stdout: 'pipe', stderr: 'inherit' }))
  try {
    const { value: port } = await linesOf(child.stdout).next()
    if (!port) throw new Error(`the ceiling server did not start (exit ${await child.exited})`)
    return await use(`http://127.0.0.1:${port}`)
  } finally {
    child.kill('SIGTERM')
    await child.exited
    rmSync(dir, { recursive: true, force: true })
  }
}

export type AgainstCeiling = {
  route: LoadResult
  ceiling: LoadResult
  /** The route's requests per second over the ceiling's. */
  ratio: number
  /** The mean size of the bodies. */
  bytes: number
}

/** Loads `paths` on `base`, then a ceiling returning the same answers, with the same wrk settings. */
export async function againstCeiling(base: string, paths: string[], options: LoadOptions & { trials?: number }): Promise<AgainstCeiling> {
  const [measured] = await sideBySide([base], paths, options)
  return measured
}

/** How many times a route and its ceiling are each loaded; the best of each counts. */
const TRIALS = 3

/**
 * As againstCeiling, for servers that give the same answers (one service over two engines): the
 * answers are recorded from the first, one ceiling returns them, and each trial loads every
 * server and the ceiling in turn, so that a stretch of a slower machine falls on all of them,
 * not on one server's trials.
 */
export async function sideBySide<const Bases extends readonly string[]>(bases: Bases, paths: string[], options: LoadOptions & { trials?: number }): Promise<{ [Index in keyof Bases]: AgainstCeiling }> {
  const { trials = TRIALS } = options
  const recorded = await record(bases[0]!, paths)
  const bytes = recorded.reduce((sum, answer) => sum + Buffer.byteLength(answer.body, 'base64'), 0) / recorded.length
  // Each server and the ceiling in turn, `trials` times each; the best run of each counts: on a
  // shared machine a run is slowed now and then by something else, never sped up.
  const best = (runs: LoadResult[]) => runs.reduce((fastest, run) => (run.perSecond > fastest.perSecond ? run : fastest))
  const routeRuns: LoadResult[][] = bases.map(() => [])
  const ceilingRuns: LoadResult[] = []
  await withCeiling(recorded, async (url) => {
    for (let trial = 0; trial < trials; trial++) {
      // Warmed up once: after the first run every server is.
      const run = trial === 0 ? options : { ...options, warmupSeconds: 0 }
      for (const [index, base] of bases.entries()) routeRuns[index]!.push(await wrkLoad(base, paths, run))
      ceilingRuns.push(await wrkLoad(url, paths, run))
    }
  })
  const ceiling = best(ceilingRuns)
  return routeRuns.map((runs) => {
    const route = best(runs)
    return { route, ceiling, ratio: route.perSecond / ceiling.perSecond, bytes }
  }) as { [Index in keyof Bases]: AgainstCeiling }
}

/** The standard columns of an HTTP row: the route's figures, the ceiling's and the ratio. */
export const HTTP_COLUMNS = ['req/s', 'p50 ms', 'p99 ms', 'ceiling req/s', 'ceiling p99 ms', 'of ceiling']

export function httpCells({ route, ceiling, ratio }: AgainstCeiling): string[] {
  const failures = route.non2xx + route.socketErrors
  return [
    `${fmt.count(route.perSecond)}${failures > 0 ? ` (${fmt.count(failures)} failed)` : ''}`,
    fmt.ms(route.p50),
    fmt.ms(route.p99),
    fmt.count(ceiling.perSecond),
    fmt.ms(ceiling.p99),
    ratio.toFixed(2),
  ]
}

// ---------------------------------------------------------------------------------------------
// Processes and folders: everything a bench starts or makes ends with the bench

const exitHooks: Array<() => void> = []

// From the harness's import on, Ctrl-C and SIGTERM are an exit, so that every exit hook runs:
// the ones below, and the anvil launcher's, which ends every node the bench started.
process.on('exit', () => {
  for (const run of exitHooks.splice(0)) {
    try {
      run()
    } catch {
      // The next hook still runs: a folder already gone, a child already ended.
    }
  }
})
process.on('SIGINT', () => process.exit(130))
process.on('SIGTERM', () => process.exit(143))

/** Runs `hook` when the bench ends, however it ends: normally, on an uncaught error, on Ctrl-C or SIGTERM. Hooks run in the order given. */
export function atExit(hook: () => void): void {
  exitHooks.push(hook)
}

/** A new folder under the system's temp folder, `stack-bench-<name>-…`, removed when the bench ends however it ends (see atExit). */
export function scratchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `stack-bench-${name}-`))
  atExit(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

const owned = new Set<Subprocess>()
// Registered first, so run first: a child is gone before the folders it may be writing are removed.
atExit(() => {
  for (const running of owned) running.kill('SIGKILL')
})

/** Kills `child` if the bench ends before it does (see atExit). */
export function own<T extends Subprocess>(child: T): T {
  owned.add(child)
  void child.exited.then(() => owned.delete(child))
  return child
}

/**
 * A logger at the stack's default level (info) whose lines go through a buffer into a file in
 * `dir`, as the stack's go through one to its standard output: a service under load in a bench
 * pays for its request lines as it does when it runs. `lines` counts what reached the file.
 */
export function fileLogger(dir: string): { log: Logger; lines: () => number } {
  const file = join(dir, `log-${Math.random().toString(36).slice(2)}.jsonl`)
  const destination = bufferedLines(openSync(file, 'a'))
  return {
    log: createLogger({ level: 'info', destination }),
    lines: () => {
      destination.flush()
      return readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').length
    },
  }
}

/** Free loopback ports, as the system hands them out, closed again for the caller to use. */
export function freePorts(count: number): number[] {
  const servers = Array.from({ length: count }, () => Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } }))
  const ports = servers.map((server) => server.port)
  for (const server of servers) server.stop(true)
  return ports
}

/** A process's memory in MiB from /proc/<pid>/status: VmRSS (resident now) or VmHWM (its peak). */
export function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!match) throw new Error(`no ${field} for process ${pid}`)
  return Number(match[1]) / 1024
}

/** CPU seconds a process has used so far, all its threads, user and system (/proc/<pid>/stat, in 1/100 s). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  // The fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

export type StackProcess = {
  pid: number
  /** performance.now() at the spawn. */
  spawnedAt: number
  /** Milliseconds from the spawn to the first 200 of `url`; throws if the process exits or `timeoutMs` passes first. */
  firstAnswer: (url: string, timeoutMs?: number) => Promise<number>
  /** Log lines so far whose message matches `pattern`; with `warnings`, only those at warn level or above. */
  count: (pattern: RegExp, warnings?: boolean) => number
  /** The warning and error lines so far (the first 50), as `level: message`. */
  problems: string[]
  /** SIGTERM, then the exit code (SIGKILL after 15 s). */
  stop: () => Promise<number>
}

const STACK_SOURCE = [process.execPath, resolve(import.meta.dir, '../src/main.ts')]

/**
 * `stack start --config FILE` in a process of its own, from this checkout's source unless
 * `command` says otherwise (dist/stack). Its JSON log lines are read as they come and counted by
 * message, never kept, so a bench can load it for minutes at any log level.
 */
export function spawnStack(configFile: string, command: string[] = STACK_SOURCE): StackProcess {
  const spawnedAt = performance.now()
  const child = own(Bun.spawn([...command, 'start', '--config', configFile], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' }))
  // By level (pino's numbers: 30 info, 40 warn, 50 error) and message.
  const messages = new Map<string, { level: number; msg: string; times: number }>()
  const problems: string[] = []
  const stderr = new Response(child.stderr).text()
  void (async () => {
    for await (const line of linesOf(child.stdout)) {
      if (!line.trim()) continue
      let entry: { level?: number; msg?: string } = { msg: line }
      try {
        entry = JSON.parse(line)
      } catch {
        // Not a log line; counted by its text.
      }
      const msg = String(entry.msg ?? '')
      const level = entry.level ?? 0
      const key = `${level} ${msg}`
      const seen = messages.get(key) ?? { level, msg, times: 0 }
      seen.times++
      messages.set(key, seen)
      if (level >= 40 && problems.length < 50) problems.push(`${level >= 50 ? 'error' : 'warn'}: ${msg}`)
    }
  })()
  return {
    pid: child.pid,
    spawnedAt,
    firstAnswer: async (url, timeoutMs = 60_000) => {
      for (;;) {
        try {
          const response = await fetch(url)
          await response.arrayBuffer()
          if (response.status === 200) return performance.now() - spawnedAt
        } catch {
          // Not listening yet.
        }
        if (child.exitCode !== null) throw new Error(`the stack exited with ${child.exitCode}: ${(await stderr).trim()}`)
        if (performance.now() - spawnedAt > timeoutMs) throw new Error(`the stack did not answer ${url} within ${timeoutMs} ms`)
        await Bun.sleep(5)
      }
    },
    count: (pattern, warnings = false) =>
      [...messages.values()].reduce((sum, { level, msg, times }) => sum + ((!warnings || level >= 40) && pattern.test(msg) ? times : 0), 0),
    problems,
    stop: async () => {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      const code = await child.exited
      clearTimeout(timer)
      return code
    },
  }
}
