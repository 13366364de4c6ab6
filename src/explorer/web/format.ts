// How the pages write numbers, amounts, times and hashes. Amounts come as decimal strings and
// stay exact: they are scaled with BigInt, never through a float.
import { largestUnit } from '../../format/duration.ts'

const grouping = new Intl.NumberFormat('en-US')

/** An integer with thousands separators. */
export const count = (value: number | string | bigint): string => grouping.format(typeof value === 'string' ? BigInt(value) : value)

/** A decimal string of base units as a decimal number of `decimals`, at most `fraction` places, grouped. */
export function units(amount: string, decimals: number, fraction = 6): string {
  let value = BigInt(amount)
  const sign = value < 0n ? '-' : ''
  if (value < 0n) value = -value
  const scale = 10n ** BigInt(decimals)
  const whole = value / scale
  const shown = (value % scale).toString().padStart(decimals, '0').slice(0, fraction).replace(/0+$/, '')
  // Dust that the places cannot show is said to be there rather than shown as 0.
  if (whole === 0n && shown === '' && value !== 0n) return `${sign}<0.${'0'.repeat(Math.max(fraction - 1, 0))}1`
  return `${sign}${count(whole)}${shown ? `.${shown}` : ''}`
}

/** Wei as ether. */
export const ether = (wei: string | null | undefined): string => (wei === null || wei === undefined ? '–' : `${units(wei, 18)} ETH`)

/** Gwei, for gas prices. */
export const gwei = (wei: string | null | undefined): string => (wei === null || wei === undefined ? '–' : `${units(wei, 9, 4)} gwei`)

/** A hash or an address cut to its ends. */
export const short = (hex: string, keep = 6): string => (hex.length <= 2 + keep * 2 + 1 ? hex : `${hex.slice(0, 2 + keep)}…${hex.slice(-keep)}`)

/** Seconds since the epoch as a date and time in UTC. */
export const absolute = (seconds: number): string => new Date(seconds * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')

/**
 * How far the chain's clock runs ahead of this machine's, in seconds (0 when it does not). A dev
 * chain can be moved forward in time (the seed does, to age its name records): its blocks are
 * then "ago" against the chain's own head, not "in 365 d" against the wall clock.
 */
let chainAhead = 0

/** Tells the pages the chain head's time (seconds), once it is known. */
export function setChainClock(headSeconds: number): void {
  chainAhead = Math.max(0, headSeconds - Date.now() / 1000)
}

/** Seconds since the epoch as "12 s ago", "5 min ago", "3 h ago", "2 d ago" (or "in …" ahead of the clock). */
export function relative(seconds: number, now = Date.now() / 1000 + chainAhead): string {
  const delta = Math.round(now - seconds)
  const text = largestUnit(Math.abs(delta))
  return delta >= 0 ? `${text} ago` : `in ${text}`
}
