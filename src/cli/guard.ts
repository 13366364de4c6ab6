import { requestContext } from '../http/requestContext.ts'
import type { Logger } from '../log.ts'

/**
 * Once the services are up, nothing a client sends may end the process: an exception or a
 * rejection that no handler caught is logged as an error, with the method and path of the
 * request whose work raised it when that is known, and the stack keeps serving. Start-up is not
 * guarded: a failure there still exits non-zero.
 */
export function guardProcess(log: Logger): void {
  const report = (origin: 'uncaughtException' | 'unhandledRejection') => (error: unknown) => {
    const request = requestContext.getStore()
    try {
      log.error({ err: error, origin, service: request?.service, method: request?.method, path: request?.path }, 'unexpected error; the stack keeps serving')
    } catch {
      // The logger itself failed (a closed stdout): there is nowhere left to say it.
    }
  }
  process.on('uncaughtException', report('uncaughtException'))
  process.on('unhandledRejection', report('unhandledRejection'))
}
