import { pollUntil } from '../../src/time/poll.ts'

/**
 * Polls `probe` until it gives something truthy, and gives that back; fails after `timeoutMs`,
 * saying what it waited for.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const { value, met } = await pollUntil(probe, (answer) => Boolean(answer), { timeoutMs, intervalMs: 20 })
  if (!met) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
  return value as NonNullable<T>
}
