import { Gauge } from 'prom-client'
import { counterOver, type ServiceMetrics } from '../http/metrics.ts'
import type { LiveHub } from './live.ts'

/** The explorer's own metrics beside its requests (and their 429s, which the conventions count): the live streams. */
export function registerExplorerMetrics(metrics: ServiceMetrics, live: LiveHub): void {
  const registers = [metrics.registry]
  new Gauge({ name: 'stack_explorer_live_streams', help: 'Live stats streams (/api/live) open now.', registers, collect() { this.set(live.openStreams) } })
  counterOver(metrics.registry, { name: 'stack_explorer_live_refused_total', help: 'Live streams refused 503, every slot being taken.' }, () => [[[], live.refused]])
}
