// How a span of seconds is written: the faucet's answers, the faucet's page, the explorer's
// pages and the spool's progress line each have their own style, all cut from the one split
// below. No Node API: the browser pages share it.

/** Whole days, hours, minutes and seconds of a span (negative spans count as none). */
export function durationParts(totalSeconds: number): { days: number; hours: number; minutes: number; seconds: number } {
  const whole = Math.max(0, Math.floor(totalSeconds))
  return { days: Math.floor(whole / 86_400), hours: Math.floor((whole % 86_400) / 3600), minutes: Math.floor((whole % 3600) / 60), seconds: whole % 60 }
}

/** Every unit, compact: 86399 → "23h 59m 59s", 61 → "1m 1s", 0 → "0s". For the faucet's answers and errors. */
export function formatDuration(totalSeconds: number): string {
  const { days, hours, minutes, seconds } = durationParts(totalSeconds)
  const parts: string[] = []
  if (days) parts.push(`${days}d`)
  if (hours) parts.push(`${hours}h`)
  if (minutes) parts.push(`${minutes}m`)
  if (seconds || parts.length === 0) parts.push(`${seconds}s`)
  return parts.join(' ')
}

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`

/** In words, hours and minutes (seconds only under a minute): "24 hours", "1 hour 5 minutes", "30 seconds". For the faucet's page. */
export function durationInWords(totalSeconds: number): string {
  const { days, hours: partHours, minutes, seconds } = durationParts(totalSeconds)
  const hours = days * 24 + partHours
  if (hours > 0) return `${plural(hours, 'hour')}${minutes ? ` ${plural(minutes, 'minute')}` : ''}`
  if (minutes > 0) return plural(minutes, 'minute')
  return plural(seconds, 'second')
}

/** The largest unit only, cut down: "12 s", "5 min", "3 h", "2 d". For "… ago" on the explorer's pages. */
export function largestUnit(totalSeconds: number): string {
  const { days, hours, minutes, seconds } = durationParts(totalSeconds)
  if (days) return `${days} d`
  if (hours) return `${hours} h`
  if (minutes) return `${minutes} min`
  return `${seconds} s`
}

/** An estimate, rounded: "45 s", "12 min", "2.5 h". For the time a catch-up has left. */
export function roughDuration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`
  return `${(seconds / 3600).toFixed(1)} h`
}
