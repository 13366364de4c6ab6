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
