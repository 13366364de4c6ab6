import { Counter, Gauge } from 'prom-client'
import { InvalidInputError, NodeUnreachableError } from '../errors.ts'
import type { ServiceMetrics } from '../http/metrics.ts'
import { statusOf } from '../http/errors.ts'
import { CoolingDownError, DripFailedError, FaucetEmptyError, FaucetUnavailableError, NoReceiptYetError, QuotaExceededError } from './errors.ts'
import type { Faucet } from './faucet.ts'

/** How a drip ended, as the metrics count it. */
export const DRIP_OUTCOMES = [
  'paid',
  'invalid',
  'cooling_down',
  'quota_client',
  'quota_address',
  'quota_global',
  'quota_all_time',
  'empty',
  'failed',
  'no_receipt',
  'unreachable',
  'unavailable',
  'error',
] as const
export type DripOutcome = (typeof DRIP_OUTCOMES)[number]

const QUOTA_OUTCOMES: Record<QuotaExceededError['quota'], DripOutcome> = { client: 'quota_client', address: 'quota_address', global: 'quota_global', allTime: 'quota_all_time' }

/** The outcome of a drip that threw `error`. */
export function dripOutcome(error: unknown): DripOutcome {
  if (error instanceof QuotaExceededError) return QUOTA_OUTCOMES[error.quota]
  if (error instanceof CoolingDownError) return 'cooling_down'
  if (error instanceof FaucetEmptyError) return 'empty'
  if (error instanceof DripFailedError) return 'failed'
  if (error instanceof NoReceiptYetError) return 'no_receipt'
  if (error instanceof NodeUnreachableError) return 'unreachable'
  if (error instanceof FaucetUnavailableError) return 'unavailable'
  if (error instanceof InvalidInputError || statusOf(error) === 400 || statusOf(error) === 413) return 'invalid'
  return 'error'
}

/**
 * The faucet's own metrics: drips by outcome (counted by the drip route through the function this
 * returns) and the quotas' use, read from the quota book at each scrape.
 */
export function registerFaucetMetrics(metrics: ServiceMetrics, faucet: Faucet): (outcome: DripOutcome) => void {
  const registers = [metrics.registry]
  const drips = new Counter({ name: 'stack_faucet_drips_total', help: 'Drip requests by outcome.', labelNames: ['outcome'], registers })
  for (const outcome of DRIP_OUTCOMES) drips.labels(outcome).inc(0)
  const { book } = faucet
  if (book) {
    const { perClient, perAddress, global, allTime } = book.limits
    new Gauge({
      name: 'stack_faucet_quota_used',
      help: "Drips counted against the faucet's global quotas: today's (UTC) and all time.",
      labelNames: ['quota'],
      registers,
      collect() {
        const usage = book.usage()
        this.labels('global').set(usage.global)
        this.labels('all_time').set(usage.allTime)
      },
    })
    const limits = new Gauge({ name: 'stack_faucet_quota_limit', help: 'Each quota: drips a day per client, per funded address, in all a day, and all time.', labelNames: ['quota'], registers })
    for (const [quota, limit] of [['client', perClient], ['address', perAddress], ['global', global], ['all_time', allTime]] as const) limits.labels(quota).set(limit)
    new Gauge({
      name: 'stack_faucet_quota_exhausted',
      help: 'Clients and funded addresses that used their whole daily quota today.',
      labelNames: ['quota'],
      registers,
      collect() {
        const usage = book.usage()
        this.labels('client').set(Object.values(usage.clients).filter((count) => count >= perClient).length)
        this.labels('address').set(Object.values(usage.addresses).filter((count) => count >= perAddress).length)
      },
    })
    new Gauge({ name: 'stack_faucet_reservations_open', help: 'Drips reserved and not yet settled by the chain.', registers, collect() { this.set(book.usage().open) } })
  }
  return (outcome) => drips.labels(outcome).inc()
}
