import { configDir, fromSource, ROOT, startStack, type RunningStack } from './stack.ts'
import { waitFor } from './wait.ts'

// `stack dev` from source with its seeded chain, as the explorer's pages are tried on it: the
// browser tests (explorerPages.ts) and bench:pages. Nothing here belongs to the test runner, so
// a bench can start it too.

export type SeededDevStack = {
  stack: RunningStack
  /** The folder of its config and data. */
  dir: string
  /** The explorer's origin, e.g. http://127.0.0.1:40123 */
  origin: string
  /** An explorer API answer, as the pages read it. */
  api: <T = any>(path: string) => Promise<T>
}

/**
 * Starts it on free ports, the explorer's minute raised to `rateLimitPerMinute` (a browser test or
 * a bench asks like many people at once from one address), and resolves once every stream is
 * past the seeded blocks, so that what a page shows is what the API says.
 */
export async function startSeededDevStack(rateLimitPerMinute: number): Promise<SeededDevStack> {
  const { dir, file } = configDir(`[dev]\nport = 0\n[registry]\nsource = "${ROOT}/registry"\n[explorer]\nport = 0\nrateLimitPerMinute = ${rateLimitPerMinute}\n`)
  const stack = await startStack(fromSource, ['dev', '--config', file], { cwd: dir, timeoutMs: 60_000 })
  const origin = new URL(stack.urls.explorer!).origin
  const api = async <T,>(path: string): Promise<T> => (await (await fetch(`${origin}/api${path}`)).json()) as T
  try {
    await waitFor(async () => {
      const stats = await api<{ indexedBlock?: number; derivedLag?: number }>('/stats')
      return (stats.indexedBlock ?? 0) > 150 && stats.derivedLag !== undefined && stats.derivedLag <= 2
    }, 'the explorer past the seeded blocks', 40_000)
  } catch (error) {
    await stack.stop()
    throw error
  }
  return { stack, dir, origin, api }
}
