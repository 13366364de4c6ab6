import { formatUnits } from 'viem'

/** An amount in display units, exact, as a decimal string: 1500000000000000000n, 18 → "1.5". */
export function displayUnits(value: bigint, decimals: number): string {
  return formatUnits(value, decimals)
}

/**
 * An amount for a person to read: thousands grouped, at most four decimals (cut, never rounded
 * up, so a balance is never shown larger than it is), and the symbol: "999,998.5 ETH".
 */
export function formatAmount(value: bigint, decimals: number, symbol: string): string {
  const [whole = '0', fraction = ''] = formatUnits(value, decimals).split('.')
  const negative = whole.startsWith('-')
  const digits = negative ? whole.slice(1) : whole
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const cut = fraction.slice(0, 4).replace(/0+$/, '')
  return `${negative ? '-' : ''}${grouped}${cut ? `.${cut}` : ''} ${symbol}`
}

/** A number of seconds for a person to read: 86399 → "23h 59m 59s", 61 → "1m 1s", 0 → "0s". */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds))
  const parts: string[] = []
  const days = Math.floor(seconds / 86400)
  const hours = Math.floor((seconds % 86400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  if (days) parts.push(`${days}d`)
  if (hours) parts.push(`${hours}h`)
  if (minutes) parts.push(`${minutes}m`)
  if (rest || parts.length === 0) parts.push(`${rest}s`)
  return parts.join(' ')
}
