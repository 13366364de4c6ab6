import { formatSignificant } from '../../format/significant.ts'

export type Fraction = { numerator: bigint; denominator: bigint }

/** Dollar figures carry this many significant figures. */
const DOLLAR_DIGITS = 12
export const WEI_PER_ETHER = 10n ** 18n

/**
 * A positive fraction as a decimal string, worked out in bigint like every other amount (never
 * a float); null stays null (never 0 for "unknown").
 */
export function dollars(value: Fraction | null): string | null {
  if (!value || value.numerator <= 0n) return null
  const text = formatSignificant(value.numerator, value.denominator, DOLLAR_DIGITS)
  // Twelve figures at most, not twelve always: 2500 is "2500", not "2500.00000000".
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text
}
