import {
  ConflictError,
  InvalidInputError,
  LimitError,
  NodeUnreachableError,
  NotFoundError,
  StackError,
  UnavailableError,
} from '../errors.ts'

/**
 * An answer only HTTP has a word for (413 for a body, 426 for a missing upgrade, 500 where a
 * spec asks for it): thrown by code that speaks HTTP itself. Domain code throws the kinds of
 * src/errors.ts, which `statusOf` maps.
 */
export class HttpError extends StackError {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(message, { details })
  }
}

/** Nothing about the node's address or its error reaches a caller. */
export const NODE_UNREACHABLE_MESSAGE = 'upstream node unavailable'

/** The status a caller gets for an error the services throw; null for a failure of the stack itself (500). */
export function statusOf(error: unknown): number | null {
  if (error instanceof HttpError) return error.status
  if (error instanceof InvalidInputError) return 400
  if (error instanceof NotFoundError) return 404
  if (error instanceof ConflictError) return 409
  if (error instanceof LimitError) return 429
  if (error instanceof NodeUnreachableError) return 502
  if (error instanceof UnavailableError) return 503
  return null
}

export const JSON_TYPE = 'application/json;charset=utf-8'

/** Headers on every answer of every service. */
export const ALWAYS_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const

/** The JSON body every error answer carries. */
export function errorBody(message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ error: message, ...extra })
}

/** A whole error answer, for the places that answer before or outside Elysia's handlers. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(errorBody(message), { status, headers: { ...ALWAYS_HEADERS, 'content-type': JSON_TYPE, ...headers } })
}
