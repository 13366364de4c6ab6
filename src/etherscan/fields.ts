import { InvalidInputError } from '../errors.ts'
import { readBodyBytes, utf8 } from '../http/body.ts'

/** A verification's standard JSON input runs to megabytes: the body cap of this listener. */
export const ETHERSCAN_MAX_BODY = 16 * 1024 * 1024

/** The most fields one request may carry; Etherscan's actions read a dozen at most. */
const MAX_FIELDS = 256

/**
 * A request's fields: the query, and for a POST its `application/x-www-form-urlencoded` body
 * merged over it (hardhat-verify puts `module` and `action` in the query and the rest in the
 * form; forge puts everything in the form). Names are matched as sent: Etherscan's are case
 * sensitive (`constructorArguements` is its own spelling). The first of repeated names wins.
 */
export async function readFields(request: Request): Promise<Map<string, string>> {
  const fields = new Map<string, string>()
  const add = (params: URLSearchParams) => {
    for (const [name, value] of params) {
      if (fields.size >= MAX_FIELDS && !fields.has(name)) throw new InvalidInputError(`too many fields (at most ${MAX_FIELDS})`)
      if (!fields.has(name)) fields.set(name, value)
    }
  }
  if (request.method === 'POST') {
    const type = (request.headers.get('content-type') ?? '').toLowerCase()
    const body = await readBodyBytes(request, ETHERSCAN_MAX_BODY)
    if (body.byteLength > 0) {
      if (type.startsWith('application/x-www-form-urlencoded')) add(new URLSearchParams(utf8(body)))
      else if (type.startsWith('multipart/form-data')) add(await multipartFields(request, body))
      else throw new InvalidInputError('a POST body must be application/x-www-form-urlencoded or multipart/form-data')
    }
  }
  add(new URL(request.url).searchParams)
  return fields
}

/** A multipart form's text fields (some Etherscan clients send forms this way); files are refused. */
async function multipartFields(request: Request, body: Uint8Array): Promise<URLSearchParams> {
  let entries: Array<[string, unknown]>
  try {
    const form = await new Response(body, { headers: { 'content-type': request.headers.get('content-type')! } }).formData()
    entries = [...(form as unknown as Iterable<[string, unknown]>)]
  } catch {
    throw new InvalidInputError('the multipart form cannot be read')
  }
  const params = new URLSearchParams()
  for (const [name, value] of entries) {
    if (typeof value !== 'string') throw new InvalidInputError(`the form field ${name} is a file; send text`)
    params.append(name, value)
  }
  return params
}
