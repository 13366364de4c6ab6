import { Elysia } from 'elysia'
import { health } from '../../http/health.ts'

/** GET /health: the process answers (spec 02's health object). */
export function healthRoutes() {
  return new Elysia().get('/health', () => health('faucet'))
}
