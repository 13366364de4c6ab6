/**
 * What counts as a number in a query string, for every service: an optional sign and decimal
 * digits (`25`, `-3`, `+7`) and nothing else: no exponent (`1e2`), no hex (`0x10`), no fraction
 * (`3.5`), no spaces. Null for anything else, a repeated parameter included; each service keeps
 * its own answer to that (the explorer's default, the exchange's 400). Digits past 2^53 come back
 * rounded (or as Infinity), which every clamp treats as "very large".
 */
export function queryInteger(raw: unknown): number | null {
  return typeof raw === 'string' && /^[+-]?\d+$/.test(raw) ? Number(raw) : null
}
