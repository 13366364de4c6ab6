import { Counter, Histogram, Registry } from 'prom-client'

export { Registry }

/** Where every service answers its metrics: outside /api/, on the service's own port (DESIGN). */
export const METRICS_PATH = '/metrics'

/** The route label of a request no route of the service matched. */
export const UNMATCHED_ROUTE = '(unmatched)'

/** Request times are mostly well under a millisecond; the tail is what a scrape should show. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

type RequestChildren = { count: { inc: () => void }; duration: { observe: (seconds: number) => void } }

/**
 * The metrics of one service: its own registry (every metric in it labelled with the service)
 * with the request counter and latency histogram that the conventions feed, and the process's
 * shared registry (the spool, the process) shown after it at /metrics. A service adds its own
 * metrics to `registry`.
 */
export class ServiceMetrics {
  readonly registry = new Registry()
  private readonly requests: Counter<'route' | 'method' | 'status'>
  private readonly latency: Histogram<'route' | 'method'>
  private limited: Counter | null = null
  /** The labelled children, by route, method and status: a request costs a lookup, an increment and an observation. */
  private readonly children = new Map<string, RequestChildren>()

  constructor(
    readonly service: string,
    private readonly shared: Registry | null = null,
  ) {
    this.registry.setDefaultLabels({ service })
    this.requests = new Counter({
      name: 'stack_http_requests_total',
      help: 'Requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers: [this.registry],
    })
    this.latency = new Histogram({
      name: 'stack_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being handed to the server (a stream: to its first bytes), by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers: [this.registry],
    })
  }

  /** One request answered. `route` is a pattern the service declares (or UNMATCHED_ROUTE), never a client's path. */
  request(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method} ${status}`
    let children = this.children.get(key)
    if (children === undefined) {
      children = { count: this.requests.labels(route, method, String(status)), duration: this.latency.labels(route, method) }
      this.children.set(key, children)
    }
    children.count.inc()
    children.duration.observe(seconds)
  }

  /** One request refused for the client's rate limit (the counter exists only on a service that has one). */
  rateLimited(): void {
    this.hasRateLimit()
    this.limited!.inc()
  }

  /** Declares the rate-limit counter at 0, so that a scrape shows it before the first refusal. */
  hasRateLimit(): void {
    this.limited ??= new Counter({ name: 'stack_http_rate_limited_total', help: "Requests refused 429 for the client's rate limit.", registers: [this.registry] })
  }

  /** The Prometheus text exposition of the service's metrics and the shared ones. */
  async text(): Promise<string> {
    const own = await this.registry.metrics()
    return this.shared ? `${own}${await this.shared.metrics()}` : own
  }

  get contentType(): string {
    return this.registry.contentType
  }
}

/**
 * A counter over a running total that another part keeps (the arcade's frames, a hub's refusals):
 * at each scrape it moves on by what each total grew since the last, so the part that counts
 * pays nothing more than its own increment. `read` gives each label set's total.
 */
export function counterOver<Label extends string>(
  registry: Registry,
  options: { name: string; help: string; labelNames?: readonly Label[] },
  read: () => Iterable<[labels: string[], total: number]>,
): Counter<Label> {
  const seen = new Map<string, number>()
  return new Counter<Label>({
    ...options,
    registers: [registry],
    collect() {
      for (const [labels, total] of read()) {
        const key = labels.join('\u0000')
        const grew = total - (seen.get(key) ?? 0)
        seen.set(key, total)
        const child = labels.length > 0 ? this.labels(...labels) : this
        child.inc(Math.max(0, grew))
      }
    },
  })
}
