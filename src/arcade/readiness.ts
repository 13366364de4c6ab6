export type Readiness = { ready: true; head: number; ageMs: number } | { ready: false; reason: string }

export type ReadinessState = {
  connected: boolean
  head: number | null
  /** Date.now() when the arcade applied the last mini-block. */
  appliedAt: number | null
  /** The last mini-block's own timestamp, in milliseconds. */
  timestampMs: number | null
}

/**
 * The arcade is not ready while the node socket is down, or when the last
 * mini-block it applied is older than the limit (five seconds by default). A mini-block's age is
 * the larger of the time since its own timestamp and the time since the arcade applied it: an old
 * block applied just now (catching up after a drop) is not fresh, and neither is a block stamped
 * in the future (anvil after evm_increaseTime) that nothing has followed. This assumes the node's
 * clock and the arcade's agree to well under the limit.
 */
export function readiness(state: ReadinessState, maxAgeMs: number, now = Date.now()): Readiness {
  if (!state.connected) return { ready: false, reason: 'the node socket is down' }
  if (state.appliedAt === null || state.head === null) return { ready: false, reason: 'no mini-block applied yet' }
  const age = Math.max(0, now - Math.min(state.appliedAt, state.timestampMs ?? state.appliedAt))
  if (age > maxAgeMs) return { ready: false, reason: `the last mini-block is ${age} ms old (limit ${maxAgeMs} ms)` }
  return { ready: true, head: state.head, ageMs: age }
}
