/** Which browser origins may call a service, and what a preflight announces. */
export type CorsPolicy = {
  /** Origins allowed besides the service's own (scheme://host:port, compared exactly). */
  origins: readonly string[]
  /** Methods announced in a preflight answer. */
  methods: readonly string[]
  /** The request header a preflight allows, spelled as the service's spec spells it. */
  headers: string
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '0.0.0.0', '::'])

/**
 * The origins a page served by the service itself would send. A service listening on a loopback
 * or wildcard address is reached as 127.0.0.1, localhost or [::1].
 */
export function ownOrigins(host: string, port: number): string[] {
  if (LOOPBACK_HOSTS.has(host)) {
    return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]
  }
  return [`http://${host.includes(':') ? `[${host}]` : host}:${port}`]
}

export function isAllowedOrigin(origin: string, policy: CorsPolicy, host: string, port: number): boolean {
  const wanted = origin.toLowerCase()
  return (
    policy.origins.some((allowed) => allowed.toLowerCase() === wanted) ||
    ownOrigins(host, port).includes(wanted)
  )
}
