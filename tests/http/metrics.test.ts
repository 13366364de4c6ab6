import { expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { parseMetrics, sampleValue } from '../helpers/prometheus.ts'
import { silentLogger } from '../../src/log.ts'
import { conventions } from '../../src/http/conventions.ts'
import { Registry, ServiceMetrics } from '../../src/http/metrics.ts'
import { listen } from '../../src/http/serve.ts'

test('/metrics counts requests by route pattern and status, behind the same origin rules, and parses as Prometheus text', async () => {
  const shared = new Registry()
  const metrics = new ServiceMetrics('probe', shared)
  const own = conventions({ service: 'probe', log: silentLogger, host: '127.0.0.1', cors: { origins: [], methods: ['GET', 'OPTIONS'], headers: 'Content-Type' }, trustedProxyHops: 0, readOnly: true, rateLimitPerMinute: 2, rateLimited: (path) => path.startsWith('/api/'), metrics })
  const app = new Elysia().use(own.plugin).get('/api/tx/:hash', ({ params }) => ({ hash: params.hash }))
  const served = listen(app, 'probe', '127.0.0.1', 0)
  try {
    for (const hash of ['0x1', '0x2']) expect((await fetch(`${served.url}/api/tx/${hash}`)).status).toBe(200)
    expect((await fetch(`${served.url}/elsewhere`)).status).toBe(404)
    // The third request of the minute to the API is refused, and counted as such.
    expect((await fetch(`${served.url}/api/tx/0x3`)).status).toBe(429)
    const refused = await fetch(`${served.url}/metrics`, { headers: { origin: 'https://evil.example' } })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ error: 'origin not allowed' })

    const response = await fetch(`${served.url}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toStartWith('text/plain; version=0.0.4')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const families = parseMetrics(await response.text())
    expect(sampleValue(families, 'stack_http_requests_total', { service: 'probe', route: '/api/tx/:hash', method: 'GET', status: '200' })).toBe(2)
    expect(sampleValue(families, 'stack_http_requests_total', { route: '(unmatched)', status: '404' })).toBe(1)
    expect(sampleValue(families, 'stack_http_requests_total', { route: '/api/tx/:hash', status: '429' })).toBe(1)
    expect(sampleValue(families, 'stack_http_requests_total', { route: '/metrics', status: '403' })).toBe(1)
    expect(sampleValue(families, 'stack_http_rate_limited_total')).toBe(1)
    expect(families.get('stack_http_request_duration_seconds')?.type).toBe('HISTOGRAM')
    // No label carries a path a client wrote.
    expect(JSON.stringify([...families.values()])).not.toContain('0x1')
  } finally {
    await served.stop()
  }
})
