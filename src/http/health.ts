import { VERSION } from '../version.ts'

const bootedAt = Date.now()

/** Liveness: the process answers. Readiness, where a service has one, is its own route. */
export function health(service: string) {
  return { service, status: 'ok', version: VERSION, uptimeSeconds: Math.floor((Date.now() - bootedAt) / 1000) }
}
