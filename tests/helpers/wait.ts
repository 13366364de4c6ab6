import { pollUntil } from '../../src/time/poll.ts'

/** The answer of a probe that threw a connection's error (a refused or reset socket: its `code`). */
type Unreachable = { unreachable: Error }

/** A socket's error, as fetch throws it (`code` ECONNRESET, ConnectionRefused, …): the server is not there yet, or a kept connection was closed under the probe. */
const connectionError = (error: unknown): error is Error => error instanceof Error && typeof (error as { code?: unknown }).code === 'string'

/**
 * Polls `probe` until it gives something truthy, and gives that back; fails after `timeoutMs`,
 * saying what it waited for. A probe that throws a connection's error (a server still starting,
 * or a kept-alive connection to one that stopped on the same port) is asked again, and the last
 * such error is said at the timeout; any other error fails at once.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const guarded = async (): Promise<T | Unreachable> => {
    try {
      return await probe()
    } catch (error) {
      if (connectionError(error)) return { unreachable: error }
      throw error
    }
  }
  const isUnreachable = (answer: unknown): answer is Unreachable => typeof answer === 'object' && answer !== null && 'unreachable' in answer && (answer as Unreachable).unreachable instanceof Error
  const { value, met } = await pollUntil(guarded, (answer) => Boolean(answer) && !isUnreachable(answer), { timeoutMs, intervalMs: 20 })
  if (!met) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${isUnreachable(value) ? ` (last: ${value.unreachable.message})` : ''}`)
  return value as NonNullable<T>
}
