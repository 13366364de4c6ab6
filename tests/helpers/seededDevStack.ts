import { rmSync } from 'node:fs'
import { createRpc, type Rpc } from '../../src/chain/rpc.ts'
import { configDir, fromSource, ROOT, startStack, type RunningStack } from './stack.ts'
import { atTestRunEnd } from './testEnd.ts'
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

/** The seeded dev stack with its chain stood still, and the node. */
export type StillDevStack = SeededDevStack & { node: Rpc; nodeUrl: string; nodeWs: string }

let still: Promise<StillDevStack> | null = null

/**
 * One seeded dev stack for the whole run whose chain stands still (no block is mined unless a
 * test asks for one), at the head its spool and streams have reached: for the tests that hold two
 * engines to one answer at one head. Started by the first file that asks, stopped once the run is
 * over; a file must not stop it, and leaves the chain standing still.
 */
export function stillSeededDevStack(): Promise<StillDevStack> {
  still ??= (async () => {
    const dev = await startSeededDevStack(1_000_000_000)
    atTestRunEnd(async () => {
      await dev.stack.stop()
      rmSync(dev.dir, { recursive: true, force: true })
    })
    const started = dev.stack.lines.find((line) => line.msg === 'dev chain started')!
    const node = createRpc(started.rpc as string)
    await node.call('evm_setIntervalMining', [0])
    await node.call('evm_setAutomine', [false])
    const head = Number(await node.call<string>('eth_blockNumber'))
    await waitFor(async () => {
      const stats = await dev.api<{ indexedBlock: number; derivedLag: number }>('/stats')
      return stats.indexedBlock === head && stats.derivedLag === 0
    }, 'the spool and its streams at the stopped head', 30_000)
    return { ...dev, node, nodeUrl: started.rpc as string, nodeWs: started.ws as string }
  })()
  return still
}
