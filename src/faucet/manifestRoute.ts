import { statSync } from 'node:fs'
import { NotFoundError } from '../errors.ts'

/**
 * The deployment manifest, streamed from the file as it is (`/addresses`). A file that is
 * missing, not a file, or unreadable is a JSON 404, as before any deployment wrote it.
 */
export function manifestResponse(path: string): Response {
  try {
    if (!statSync(path).isFile()) throw new Error('not a file')
  } catch {
    throw new NotFoundError('deployment manifest not found')
  }
  return new Response(Bun.file(path).stream(), { headers: { 'content-type': 'application/json;charset=utf-8' } })
}
