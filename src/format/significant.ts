// How numbers are written for people and for JSON: exact fractions to a number of significant
// figures. Pure bigint work, no float, no Node API: the server and the browser pages share it.

/**
 * numerator / denominator as a plain decimal string of exactly `digits` significant figures,
 * rounded half up, with bigint arithmetic only (no float ever sees the value). Zero is "0".
 */
export function formatSignificant(numerator: bigint, denominator: bigint, digits: number): string {
  if (denominator <= 0n || numerator < 0n) throw new RangeError('formatSignificant takes a non-negative fraction')
  if (numerator === 0n) return '0'
  const low = 10n ** BigInt(digits - 1)
  const high = low * 10n
  // value * 10^shift lands in [10^(digits-1), 10^digits); start from the digit counts and correct.
  let shift = digits - 1 - (numerator.toString().length - denominator.toString().length)
  let scaled = scaleRounded(numerator, denominator, shift)
  for (;;) {
    if (scaled >= high) scaled = scaleRounded(numerator, denominator, --shift)
    else if (scaled < low) scaled = scaleRounded(numerator, denominator, ++shift)
    else break
  }
  const text = scaled.toString()
  if (shift <= 0) return text + '0'.repeat(-shift)
  const padded = text.padStart(shift + 1, '0')
  return `${padded.slice(0, padded.length - shift)}.${padded.slice(padded.length - shift)}`
}

/** round(numerator * 10^shift / denominator), half up. */
function scaleRounded(numerator: bigint, denominator: bigint, shift: number): bigint {
  const [top, bottom] = shift >= 0 ? [numerator * 10n ** BigInt(shift), denominator] : [numerator, denominator * 10n ** BigInt(-shift)]
  return (top * 2n + bottom) / (bottom * 2n)
}

/**
 * The same figures for a person to read: a fraction of either sign, the trailing zeros of the
 * decimals dropped ("0.5", "-1200"). The pages group the whole part themselves.
 */
export function readableSignificant(numerator: bigint, denominator: bigint, digits: number): string {
  const negative = numerator < 0n !== denominator < 0n
  const plain = formatSignificant(numerator < 0n ? -numerator : numerator, denominator < 0n ? -denominator : denominator, digits)
  const trimmed = plain.includes('.') ? plain.replace(/\.?0+$/, '') : plain
  return negative && trimmed !== '0' ? `-${trimmed}` : trimmed
}
