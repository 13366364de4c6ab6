import { Elysia } from 'elysia'
import type { Explorer } from '../explorer.ts'

const JSON_TYPE = { 'content-type': 'application/json;charset=utf-8' }

/**
 * `/stats` (and its alias `/`) serve the cached stats object; `/live` streams it. The
 * stats are kept as the bytes that go out, so the hottest route of the explorer copies them.
 */
export function statsRoutes(explorer: Explorer) {
  const respond = (bytes: Uint8Array) => new Response(bytes, { headers: JSON_TYPE })
  const stats = () => {
    const bytes = explorer.stats.bytes()
    return bytes instanceof Uint8Array ? respond(bytes) : bytes.then(respond)
  }
  return new Elysia({ name: 'explorer-stats' })
    .get('/', stats)
    .get('/stats', stats)
    .get('/live', async ({ request, server }) => {
      const response = await explorer.live.connect()
      // A quiet stream is not an idle connection: only the stream's own lifetime ends it.
      server?.timeout(request, 0)
      return response
    })
}
