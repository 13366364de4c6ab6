// @ts-expect-error: the parser ships no types; what it returns is typed below.
import parse from 'parse-prometheus-text-format'

/** One metric family as the parser gives it. */
export type Family = {
  name: string
  help: string
  type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
  metrics: Array<{ value?: string; labels?: Record<string, string>; buckets?: Record<string, string>; count?: string; sum?: string }>
}

/** A sample value as Prometheus reads it (Go's ParseFloat: NaN and infinities in any case). */
const NUMBER = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?(?:inf|infinity)|nan)$/i

/**
 * Parses Prometheus's text exposition format, strictly: a line the parser cannot read throws, a
 * family without its type or help, or a sample whose value is not a number, fails too.
 */
export function parseMetrics(text: string): Map<string, Family> {
  const families = parse(text) as Family[]
  const byName = new Map<string, Family>()
  for (const family of families) {
    if (family.type === 'UNTYPED' || !family.help) throw new Error(`metric ${family.name} has no TYPE or HELP line`)
    for (const sample of family.metrics) {
      for (const value of [sample.value, sample.count, sample.sum, ...Object.values(sample.buckets ?? {})]) {
        if (value !== undefined && !NUMBER.test(value)) throw new Error(`metric ${family.name} has a value that is not a number: ${value}`)
      }
    }
    if (byName.has(family.name)) throw new Error(`metric ${family.name} appears twice`)
    byName.set(family.name, family)
  }
  return byName
}

/** The value of the sample of `family` whose labels include `labels` (a counter or gauge); NaN when none. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = families.get(name)
  const sample = family?.metrics.find((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value))
  if (!sample) return Number.NaN
  return Number(sample.value ?? sample.count)
}

/** Fetches a service's /metrics and parses it; fails on a status other than 200 or a body that does not parse. */
export async function scrape(baseUrl: string): Promise<Map<string, Family>> {
  const response = await fetch(`${baseUrl}/metrics`)
  if (response.status !== 200) throw new Error(`${baseUrl}/metrics answered ${response.status}`)
  return parseMetrics(await response.text())
}
