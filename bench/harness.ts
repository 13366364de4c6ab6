// The bench harness: what every bench measures with and prints through. Percentiles and the
// table are computed and printed here only; HTTP load comes from wrk (Debian's package) in a
// process of its own, and an HTTP ceiling is a bare Bun.serve in another process returning the
// same bytes and headers as the route, loaded by the same wrk in the same run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { linesOf } from '../tests/helpers/lines.ts'

// ---------------------------------------------------------------------------------------------
// Samples and tables

/** The sample at quantile `q` (0 to 1) of `sorted` (ascending); NaN when there is none. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!
}

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
  const dir = mkdtempSync(join(tmpdir(), 'stack-bench-wrk-'))
  const pathsFile = join(dir, 'paths')
  writeFileSync(pathsFile, `${paths.join('\n')}\n`)
  const run = async (duration: number) => {
    const argv = [findWrk(), '-t', String(Math.min(threads, connections)), '-c', String(connections), '-d', `${duration}s`, '--timeout', '10s', '-s', WRK_SCRIPT, `${base}${paths[0]}`]
    const child = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...(paths.length > 1 ? { BENCH_PATHS: pathsFile } : {}) } })
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
  const dir = mkdtempSync(join(tmpdir(), 'stack-bench-ceiling-'))
  const file = join(dir, 'answers.json')
  writeFileSync(file, JSON.stringify(recorded))
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'ceiling.ts'), file], { stdout: 'pipe', stderr: 'inherit' })
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
export async function againstCeiling(base: string, paths: string[], options: LoadOptions): Promise<AgainstCeiling> {
  const recorded = await record(base, paths)
  const bytes = recorded.reduce((sum, answer) => sum + Buffer.byteLength(answer.body, 'base64'), 0) / recorded.length
  const route = await wrkLoad(base, paths, options)
  const ceiling = await withCeiling(recorded, (url) => wrkLoad(url, paths, options))
  return { route, ceiling, ratio: route.perSecond / ceiling.perSecond, bytes }
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
