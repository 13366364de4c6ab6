import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Compiler } from './compilers.ts'
import type { CompileWorkerAnswer, CompileWorkerRequest } from './compileWorker.ts'
import { CompilerFailedError, CompileTimeoutError, InputTooLargeError } from './errors.ts'
import { giveBack, takeWorker } from './warmWorkers.ts'

/**
 * The compile worker's entry. Run from source, a module's URL is its own file; in the compiled
 * executable every module shares the executable's URL at the root of the embedded files, where the
 * worker's entry (listed in build.ts) keeps its path relative to src/.
 */
export const COMPILE_WORKER_URL = import.meta.url.endsWith('.ts')
  ? new URL('./compileWorker.ts', import.meta.url).href
  : new URL('./verify/compileWorker.ts', import.meta.url).href

export type CompileLimits = {
  timeoutSeconds: number
  /** The most bytes of the compiler's output read; past it the compile is stopped. */
  maxOutputBytes: number
  workerUrl?: string
  /** Stops the compile (the worker terminated, the process killed). */
  signal?: AbortSignal
}

/** The compiler's output as text, and the version it reported (null when it said none). */
export type CompilerRun = { output: string; version: string | null }

/**
 * One compile off the event loop: a native solc in a subprocess (`--standard-json`), a soljson in
 * a worker thread. Killed at the time limit (CompileTimeoutError), its output read up to the bound
 * (InputTooLargeError past it).
 */
export function runCompiler(compiler: Compiler, input: string, limits: CompileLimits): Promise<CompilerRun> {
  return compiler.kind === 'native' ? runNative(compiler.path!, input, limits) : runSoljson(compiler.path, input, limits)
}

async function runSoljson(soljson: string | null, input: string, limits: CompileLimits): Promise<CompilerRun> {
  const answer = await inWorker({ soljson, input, maxOutputChars: limits.maxOutputBytes }, limits)
  if ('error' in answer) {
    if (answer.tooLarge) throw new InputTooLargeError(answer.error)
    throw new CompilerFailedError(`solc-js failed: ${answer.error}`)
  }
  return { output: answer.output ?? '', version: answer.version }
}

function inWorker(request: CompileWorkerRequest, limits: CompileLimits): Promise<CompileWorkerAnswer> {
  return new Promise((resolve, reject) => {
    const key = request.soljson ?? ''
    const worker = takeWorker(key, limits.workerUrl ?? COMPILE_WORKER_URL)
    let settled = false
    const settle = (finish: () => void, keep: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      limits.signal?.removeEventListener('abort', onAbort)
      worker.removeEventListener('message', onMessage)
      worker.removeEventListener('error', onError)
      worker.removeEventListener('close', onClose)
      if (keep) giveBack(key, worker)
      else worker.terminate()
      finish()
    }
    // terminate() stops the worker even inside a long WebAssembly call.
    const timer = setTimeout(() => settle(() => reject(new CompileTimeoutError(limits.timeoutSeconds)), false), limits.timeoutSeconds * 1000)
    const onAbort = () => settle(() => reject(new CompilerFailedError('the compile was stopped')), false)
    const onMessage = (event: MessageEvent<CompileWorkerAnswer>) => settle(() => resolve(event.data), !('error' in event.data))
    const onError = (event: ErrorEvent) => settle(() => reject(new CompilerFailedError(`the compile worker failed: ${event.message}`)), false)
    const onClose = () => settle(() => reject(new CompilerFailedError('the compile worker stopped without an answer')), false)
    limits.signal?.addEventListener('abort', onAbort, { once: true })
    worker.addEventListener('message', onMessage)
    worker.addEventListener('error', onError)
    worker.addEventListener('close', onClose)
    worker.postMessage(request)
  })
}

async function runNative(path: string, input: string, limits: CompileLimits): Promise<CompilerRun> {
  let child: Bun.Subprocess<Blob, 'pipe', 'pipe'>
  // An empty folder of its own to work in: solc looks for an import missing from the input
  // beside it, and must find nothing there.
  const cwd = mkdtempSync(join(tmpdir(), 'stack-solc-'))
  try {
    child = Bun.spawn([path, '--standard-json'], { stdin: new Blob([input]), stdout: 'pipe', stderr: 'pipe', cwd })
  } catch (error) {
    rmSync(cwd, { recursive: true, force: true })
    throw new CompilerFailedError(`cannot run ${path}: ${(error as Error).message}`, { cause: error })
  }
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    child.kill('SIGKILL')
  }, limits.timeoutSeconds * 1000)
  const stop = () => child.kill('SIGKILL')
  limits.signal?.addEventListener('abort', stop, { once: true })
  try {
    const [stdout, stderr] = await Promise.all([readBounded(child.stdout, limits.maxOutputBytes, () => child.kill('SIGKILL')), readBounded(child.stderr, 4096, null)])
    const code = await child.exited
    if (timedOut) throw new CompileTimeoutError(limits.timeoutSeconds)
    if (limits.signal?.aborted) throw new CompilerFailedError('the compile was stopped')
    if (stdout.tooLarge) throw new InputTooLargeError(`the compiler's output is larger than ${limits.maxOutputBytes} bytes`)
    if (code !== 0 && stdout.text.trim() === '') throw new CompilerFailedError(`${path} exited with ${code}: ${stderr.text.trim().split('\n', 1)[0] ?? ''}`)
    return { output: stdout.text, version: null }
  } finally {
    clearTimeout(timer)
    limits.signal?.removeEventListener('abort', stop)
    rmSync(cwd, { recursive: true, force: true })
  }
}

/** A stream read to its end, keeping at most `max` bytes; `onOver` is told once when it goes past. */
async function readBounded(stream: ReadableStream<Uint8Array>, max: number, onOver: (() => void) | null): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Uint8Array[] = []
  let size = 0
  let tooLarge = false
  for await (const chunk of stream) {
    if (tooLarge) continue
    if (size + chunk.byteLength > max) {
      tooLarge = true
      if (onOver) {
        onOver()
        break
      }
      continue
    }
    chunks.push(chunk)
    size += chunk.byteLength
  }
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge }
}

const nativeVersions = new Map<string, Promise<string | null>>()

/** What a native solc says its version is (`--version`), asked once a path; null when it cannot say. */
export function probeNative(path: string): Promise<string | null> {
  let known = nativeVersions.get(path)
  if (!known) {
    known = askVersion(path)
    nativeVersions.set(path, known)
  }
  return known
}

async function askVersion(path: string): Promise<string | null> {
  try {
    const child = Bun.spawn([path, '--version'], { stdin: 'ignore', stdout: 'pipe', stderr: 'ignore', cwd: tmpdir() })
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    const { text } = await readBounded(child.stdout, 4096, () => child.kill('SIGKILL'))
    clearTimeout(timer)
    return (await child.exited) === 0 ? (/Version:\s*(\S+)/.exec(text)?.[1] ?? null) : null
  } catch {
    return null
  }
}

let bundled: Promise<string | null> | null = null

/** The bundled solc-js's long version, asked of a worker once. */
export function probeBundled(workerUrl?: string): Promise<string | null> {
  bundled ??= inWorker({ soljson: null, input: null, maxOutputChars: 0 }, { timeoutSeconds: 60, maxOutputBytes: 0, workerUrl })
    .then((answer) => ('version' in answer ? answer.version : null))
    .catch(() => {
      bundled = null
      return null
    })
  return bundled
}
