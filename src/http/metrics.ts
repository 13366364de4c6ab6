import { Counter, Registry, type Metric } from 'prom-client'

export { Registry }

/** Where every service answers its metrics: outside /api/, on the service's own port (docs/metrics.md). */
export const METRICS_PATH = '/metrics'

/** The route label of a request no route of the service matched. */
export const UNMATCHED_ROUTE = '(unmatched)'

/** Request times are mostly well under a millisecond; the tail is what a scrape should show. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const LATENCY_NAME = 'stack_http_request_duration_seconds'
const LATENCY_HELP = 'Time from a request arriving to its answer being handed to the server (a stream: to its first bytes), by route pattern and method.'

/** A route's latencies as prom-client's registry writes a histogram: cumulative buckets, then the sum and the count. */
function histogramValues({ labels, count, sum, buckets }: RouteTimes) {
  let below = 0
  const values: Array<{ metricName: string; labels: Record<string, string | number>; value: number }> = LATENCY_BUCKETS.map((le, index) => {
    below += buckets[index]!
    return { metricName: `${LATENCY_NAME}_bucket`, labels: { ...labels, le }, value: below }
  })
  values.push({ metricName: `${LATENCY_NAME}_bucket`, labels: { ...labels, le: '+Inf' }, value: count })
  values.push({ metricName: `${LATENCY_NAME}_sum`, labels, value: sum }, { metricName: `${LATENCY_NAME}_count`, labels, value: count })
  return values
}

/** One route and method: how many answers of each status, and how long they took. */
type RouteTimes = { labels: { route: string; method: string }; statuses: Map<number, number>; count: number; sum: number; buckets: number[] }

/**
 * The metrics of one service: its own registry (every metric in it labelled with the service)
 * with the request counter and latency histogram that the conventions feed, and the process's
 * shared registry (the spool, the process) shown after it at /metrics. A service adds its own
 * metrics to `registry`.
 *
 * A request is recorded as plain numbers (a map lookup, two increments, a bucket found among
 * fourteen), and prom-client's registry reads them at each scrape: its own labelled counter and
 * histogram validate and hash the labels at every increment, which took /stats from 0.70 to 0.66
 * of its ceiling in bench:explorer.
 */
export class ServiceMetrics {
  readonly registry = new Registry()
  private limited: Counter | null = null
  /** By route and method (`${route} ${method}`): a request costs one lookup. */
  private readonly routes = new Map<string, RouteTimes>()

  constructor(
    readonly service: string,
    private readonly shared: Registry | null = null,
  ) {
    this.registry.setDefaultLabels({ service })
    const routes = this.routes
    counterOver(
      this.registry,
      { name: 'stack_http_requests_total', help: 'Requests answered, by route pattern, method and status.', labelNames: ['route', 'method', 'status'] },
      () => [...routes.values()].flatMap(({ labels, statuses }) => [...statuses].map(([status, total]): [string[], number] => [[labels.route, labels.method, String(status)], total])),
    )
    // prom-client has no histogram read at scrape: the registry is handed one whole.
    this.registry.registerMetric({
      name: LATENCY_NAME,
      help: LATENCY_HELP,
      type: 'histogram',
      get: async () => ({
        name: LATENCY_NAME,
        help: LATENCY_HELP,
        type: 'histogram',
        aggregator: 'sum',
        values: [...routes.values()].flatMap(histogramValues),
      }),
    } as unknown as Metric)
  }

  /** One request answered. `route` is a pattern the service declares (or UNMATCHED_ROUTE), never a client's path. */
  request(route: string, method: string, status: number, seconds: number): void {
    const key = `${route} ${method}`
    let times = this.routes.get(key)
    if (times === undefined) {
      times = { labels: { route, method }, statuses: new Map(), count: 0, sum: 0, buckets: new Array<number>(LATENCY_BUCKETS.length + 1).fill(0) }
      this.routes.set(key, times)
    }
    times.statuses.set(status, (times.statuses.get(status) ?? 0) + 1)
    times.count++
    times.sum += seconds
    let bucket = 0
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++
    times.buckets[bucket]!++
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
