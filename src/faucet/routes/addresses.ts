import { statSync } from 'node:fs'
import { Elysia } from 'elysia'
import { NotFoundError } from '../../errors.ts'

/**
 * The deployment manifest at `path`, streamed from the file as it is (`/addresses`, and the path
 * the spec's deployments are published at). A file that is missing, not a file, or unreadable is
 * a JSON 404, as before any deployment wrote it.
 */
export function addressesRoutes(path: string) {
  const addresses = () => {
    try {
      if (!statSync(path).isFile()) throw new Error('not a file')
    } catch {
      throw new NotFoundError('deployment manifest not found')
    }
    return new Response(Bun.file(path).stream(), { headers: { 'content-type': 'application/json;charset=utf-8' } })
  }
  return new Elysia().get('/addresses', addresses).get('/op-deployment/l2-addresses.json', addresses)
}
