import { InvalidInputError } from '../errors.ts'
import { HttpError } from './errors.ts'

/**
 * A request's body as bytes, read no further than `limit`: a declared length past it is refused
 * before reading (the conventions refuse it before routing too), and a chunked body is cut off
 * and refused the moment it passes it, so no client makes the process hold more than `limit`.
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > limit) throw new HttpError(413, `payload too large (limit ${limit} bytes)`)
  if (!request.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new HttpError(413, `payload too large (limit ${limit} bytes)`)
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}

/** Bytes as UTF-8 text; bytes that are not UTF-8 are the client's mistake (400), not replaced. */
export function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new InvalidInputError('the body is not UTF-8 text')
  }
}
