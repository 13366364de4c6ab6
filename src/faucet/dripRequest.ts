import type { Address } from 'viem'
import { InvalidInputError } from '../errors.ts'
import { HttpError } from '../http/errors.ts'
import { parseDripAddress } from './address.ts'

/** A drip request body may be at most this many bytes (docs/faucet.md). */
export const MAX_BODY_BYTES = 4096

/**
 * The address a `POST /drip` asks for, after the request rules of docs/faucet.md: a chunked body is
 * refused outright (its size is not known before reading it), a body is required and at most
 * 4096 bytes (zero or too many: 413), the declared length must be a length and match what
 * arrived (400), the content type must be JSON, the JSON must parse (400) and name an address
 * (400). Nothing is read past the declared length.
 *
 * Bun's HTTP parser already answers a malformed Content-Length header with a bare 400 before
 * any of this runs; the checks here cover what reaches the service.
 */
export async function readDripRequest(request: Request): Promise<Address> {
  const headers = request.headers
  if (headers.get('transfer-encoding') !== null) throw new InvalidInputError('chunked request bodies are refused; send a Content-Length')

  const declared = headers.get('content-length')
  if (declared === null || declared.trim() === '0') throw new HttpError(413, 'a body is required')
  if (!/^\d+$/.test(declared.trim())) throw new InvalidInputError('invalid content length')
  const length = Number(declared.trim())
  if (length > MAX_BODY_BYTES) throw new HttpError(413, `payload too large (limit ${MAX_BODY_BYTES} bytes)`)

  const type = headers.get('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new InvalidInputError('content-type must be application/json')

  const bytes = new Uint8Array(await request.arrayBuffer())
  if (bytes.byteLength !== length) throw new InvalidInputError('invalid content length')

  let body: unknown
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw new InvalidInputError('invalid json')
  }
  const address = typeof body === 'object' && body !== null ? parseDripAddress((body as { address?: unknown }).address) : null
  if (!address) throw new InvalidInputError('invalid address')
  return address
}
