/**
 * The stack's errors share one base, so a caller matches a kind, never a list of names (as
 * viem's BaseError and Ponder's internal errors do). Two branches say what to do with one:
 * a RetryableError may go away by itself (a node away, a file being replaced), a FatalError will
 * not and stops what raised it (at start: one line and exit 1).
 *
 * What a caller of the HTTP services sees is decided by kind in one place, the conventions
 * plugin: domain code throws InvalidInputError, NotFoundError, ConflictError, LimitError or
 * UnavailableError (or a NodeUnreachableError from the chain) and never picks a status.
 * `details` are keys the caller's JSON body carries beside the message.
 */
export class StackError extends Error {
  override name = 'StackError'
  readonly details: Record<string, unknown>
  constructor(message: string, { cause, details = {} }: StackErrorOptions = {}) {
    super(message, cause === undefined ? undefined : { cause })
    this.details = details
  }

  /**
   * Down the chain of causes (this error first): the first error `match` accepts, or null; with
   * no `match`, the deepest cause. A library's error (viem's, a socket's) stays reachable here
   * however many layers wrapped it.
   */
  walk(match?: (error: unknown) => boolean): unknown {
    return walk(this, match)
  }
}

export type StackErrorOptions = {
  /** What went wrong underneath, kept whole (viem's error, a socket's). */
  cause?: unknown
  details?: Record<string, unknown>
}

/** `StackError.walk` for any thrown value; the chain ends at a value without a cause (or loops). */
export function walk(error: unknown, match?: (error: unknown) => boolean): unknown {
  const seen = new Set<unknown>()
  let current = error
  for (;;) {
    if (match?.(current)) return current
    seen.add(current)
    const cause = typeof current === 'object' && current !== null ? (current as { cause?: unknown }).cause : undefined
    if (cause === undefined || cause === null || seen.has(cause)) return match ? null : current
    current = cause
  }
}

/** May go away by itself: try again later. */
export class RetryableError extends StackError {
  override name = 'RetryableError'
}

/** Will not go away by itself: whatever raised it stops. */
export class FatalError extends StackError {
  override name = 'FatalError'
}

/**
 * The node cannot be reached (refused, timed out, not answering JSON-RPC). Every layer says it
 * with this one class; the HTTP services answer it 502 where an answer depends on the node.
 */
export class NodeUnreachableError extends RetryableError {
  override name = 'NodeUnreachableError'
}

/** What the caller sent cannot be read (400). */
/**
 * The node took longer than the caller's time limit: reachable, perhaps, but overloaded. A
 * NodeUnreachableError everywhere but in the spool's follower, which backs off and asks for less.
 */
export class NodeTimeoutError extends NodeUnreachableError {
  override name = 'NodeTimeoutError'
}

export class InvalidInputError extends StackError {
  override name = 'InvalidInputError'
}

/** What the caller asked for does not exist (404). */
export class NotFoundError extends StackError {
  override name = 'NotFoundError'
}

/** The request conflicts with the state it would change, for now (409: a cooldown). */
export class ConflictError extends StackError {
  override name = 'ConflictError'
}

/** One of the service's own limits is used up (429). */
export class LimitError extends StackError {
  override name = 'LimitError'
}

/** The service cannot do it now (503: not ready, empty, a refused or unsettled transaction). */
export class UnavailableError extends RetryableError {
  override name = 'UnavailableError'
}

/** The first line of an error's message: what a log line or a caller is told, without the stack of causes. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n', 1)[0] ?? ''
}

/** The node could not be reached through viem: `error` is viem's, kept as the cause. */
export function nodeUnreachable(error: unknown): NodeUnreachableError {
  return new NodeUnreachableError(`the node cannot be reached: ${firstLine(error)}`, { cause: error })
}
