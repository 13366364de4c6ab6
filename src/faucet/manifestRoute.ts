import { statSync } from 'node:fs'
import { HttpError } from '../http/errors.ts'

/**
 * The deployment manifest, streamed from the file as it is (`/addresses`). A file that is
 * missing, not a file, or unreadable is a JSON 404, as before any deployment wrote it.
 */
export function manifestResponse(path: string): Response {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file')
  } catch {
    throw new HttpError(404, 'deployment manifest not found')
  }
  return new Response(Bun.file(path).stream(), { headers: { 'content-type': 'application/json;charset=utf-8' } })
}
