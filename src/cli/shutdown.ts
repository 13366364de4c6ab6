import type { Logger } from '../log.ts'

/** How long a graceful stop may take before the process exits anyway. */
const GRACE_MS = 10_000

/**
 * On SIGINT or SIGTERM: run the closers in order (listeners first, so in-flight requests are
 * answered before the stores under them close), then exit 0. A second signal, or a stop that
 * takes longer than the grace period, exits at once with 130 or 1.
 */
export function onShutdown(log: Logger, closers: Array<() => Promise<void> | void>): void {
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal, exiting now')
      process.exit(130)
    }
    stopping = true
    log.info({ signal }, 'stopping')
    const timer = setTimeout(() => {
      log.error({ graceMs: GRACE_MS }, 'graceful stop took too long, exiting')
      process.exit(1)
    }, GRACE_MS)
    timer.unref()
    for (const close of closers) {
      try {
        await close()
      } catch (error) {
        log.error({ err: error }, 'error while stopping')
      }
    }
    log.info('stopped')
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}
