/**
 * An error meant for the caller: the status and message go into the JSON body as
 * `{"error": message}`, plus any extra keys. Handlers throw it; the conventions plugin
 * turns it into the response, so no handler formats an error itself.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'HttpError'
  }
}

export const notFound = (message = 'not found') => new HttpError(404, message)
export const badRequest = (message: string) => new HttpError(400, message)

export const JSON_TYPE = 'application/json;charset=utf-8'

/** Spec 03 "Shared conventions": on every answer of every service. */
export const ALWAYS_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const

/** The JSON body every error answer carries. */
export function errorBody(message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ error: message, ...extra })
}

/** A whole error answer, for the places that answer before or outside Elysia's handlers. */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(errorBody(message), { status, headers: { ...ALWAYS_HEADERS, 'content-type': JSON_TYPE, ...headers } })
}
