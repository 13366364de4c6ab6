import { Elysia } from 'elysia'
import { health } from '../../http/health.ts'

/** GET /health: the process answers (the health object every service gives). */
export function healthRoutes() {
  return new Elysia().get('/health', () => health('faucet'))
}
