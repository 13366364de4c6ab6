import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { ServiceName } from '../config/schema.ts'
import { writeFileAtomic } from '../files/writeFileAtomic.ts'

/**
 * The running stack, as it tells `stack status` and `stack reset` where to find it: a small JSON
 * file in its data folder, written once every service listens and removed on a clean stop. A
 * file whose process is gone (a `kill -9`, a crash) is stale and means that nothing runs.
 */
export const RUNTIME_FILE = 'runtime.json'

/**
 * The explorer's route for the operator's commands, beside its /api: its health, stats and the
 * spool's head as it reads it, outside the per-client minute and answered only to this machine.
 */
export const OPERATOR_PATH = '/operator'

export type Runtime = {
  pid: number
  /** `dev`: a local chain this process started (it can be reset); `start`: a node it follows. */
  mode: 'dev' | 'start'
  version: string
  startedAt: string
  config: string | null
  dataDir: string
  chainId: number
  rpcUrl: string
  wsUrl: string
  /** Each service's base URL, as it listens; null for a service this instance does not serve (an instance on a database may serve fewer). */
  services: Record<ServiceName, string | null>
  manifestPath: string
  /** Who signs the faucet's drips, and whether with anvil's public dev key #1 (always under `stack dev`). */
  faucet: { operator: string | null; publicDevKey: boolean }
  /** `stack dev` only: the chain's reset point, an anvil snapshot of it and the block it was taken at. */
  snapshot: { id: string; block: number } | null
  /** `stack dev` only: the state file the chain is saved to, and the chain it forked. */
  state: string | null
  fork: { url: string; block: number | null } | null
  /** On a database: where, the schema, and this instance's role; absent or null on the embedded file. */
  database?: { where: string; schema: string; role: string } | null
}

export function runtimePath(dataDir: string): string {
  return join(dataDir, RUNTIME_FILE)
}

/** Written atomically: a reader sees the old file or the new one, never half of one. */
export function writeRuntime(runtime: Runtime): void {
  writeFileAtomic(runtimePath(runtime.dataDir), `${JSON.stringify(runtime, null, 2)}\n`)
}

/** Removes the file if it is this process's (a second stack on the same folder may have written its own). */
export function removeRuntime(dataDir: string, pid = process.pid): void {
  if (readRuntimeFile(dataDir)?.pid === pid) rmSync(runtimePath(dataDir), { force: true })
}

/** What the data folder says runs: the runtime, or why nothing does. */
export type Found = { running: true; runtime: Runtime } | { running: false; reason: string }

/** The stack running on `dataDir`: its runtime file, if there is one and its process is alive. */
export function findRunning(dataDir: string): Found {
  const runtime = readRuntimeFile(dataDir)
  if (!runtime) return { running: false, reason: `no stack is running on ${dataDir} (no ${RUNTIME_FILE} there)` }
  if (!isAlive(runtime.pid)) return { running: false, reason: `no stack is running on ${dataDir}: process ${runtime.pid} of ${runtimePath(dataDir)} is gone` }
  return { running: true, runtime }
}

function readRuntimeFile(dataDir: string): Runtime | null {
  try {
    const runtime = JSON.parse(readFileSync(runtimePath(dataDir), 'utf8')) as Runtime
    return typeof runtime?.pid === 'number' && typeof runtime.services === 'object' ? runtime : null
  } catch {
    return null
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as { code?: string }).code === 'EPERM'
  }
}
