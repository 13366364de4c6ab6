import type { Config } from '../config/load.ts'
import { resetStack } from '../ops/reset.ts'
import { findRunning } from '../ops/runtime.ts'
import { stackStatus, statusEnv, statusText } from '../ops/status.ts'

/** The exit code of `stack status` and `stack reset` when no stack runs on the config's data folder. */
export const NOT_RUNNING = 3

/** How long `stack reset` waits for every service to follow the chain back. */
const RESET_TIMEOUT_MS = 60_000

/**
 * `stack status [--json | --env]`: the running stack's URLs, chain, contracts and each service's
 * health and lag. 0 when every service answers, 1 when one does not, 3 when nothing runs.
 */
export async function status(config: Config, format: 'text' | 'json' | 'env'): Promise<number> {
  const found = findRunning(config.dataDir)
  if (!found.running) {
    process.stderr.write(`stack: ${found.reason}\n`)
    return NOT_RUNNING
  }
  const current = await stackStatus(found.runtime)
  // A live process that answers on none of the ports is not this stack (its pid was reused).
  if (Object.values(current.services).every((service) => service.error !== undefined)) {
    process.stderr.write(`stack: no stack answers on the ports ${found.runtime.pid} wrote in ${config.dataDir}\n`)
    return NOT_RUNNING
  }
  process.stdout.write(format === 'json' ? `${JSON.stringify(current)}\n` : format === 'env' ? statusEnv(current) : statusText(current))
  return current.healthy ? 0 : 1
}

/** `stack reset`: 0 once the chain is back and every service has followed, 1 when not, 3 when nothing runs. */
export async function reset(config: Config): Promise<number> {
  const found = findRunning(config.dataDir)
  if (!found.running) {
    process.stderr.write(`stack: ${found.reason}\n`)
    return NOT_RUNNING
  }
  const { resetBlock, head, seconds } = await resetStack(found.runtime, { timeoutMs: RESET_TIMEOUT_MS })
  process.stdout.write(`stack reset: the chain is back at block ${resetBlock}, right after deploy and seed; head ${head}, every service followed in ${seconds.toFixed(1)} s\n`)
  return 0
}
