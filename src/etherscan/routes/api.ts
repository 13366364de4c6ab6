import { Elysia } from 'elysia'
import { ALWAYS_HEADERS, JSON_TYPE } from '../../http/errors.ts'
import type { ApiAnswer } from '../answer.ts'
import type { Fields } from '../dispatch.ts'
import { readFields } from '../fields.ts'

/**
 * Etherscan's `/api` (and `/api/`, which forge's `--verifier-url` ends with), GET and POST: the
 * fields merged from the query and the form, answered by `answer`, always with HTTP 200.
 */
export function apiRoutes(answer: (fields: Fields) => Promise<ApiAnswer>) {
  const handle = async ({ request }: { request: Request }) => {
    const fields = await readFields(request)
    return new Response(JSON.stringify(await answer(fields)), { headers: { ...ALWAYS_HEADERS, 'content-type': JSON_TYPE } })
  }
  return new Elysia({ name: 'etherscan-api' }).get('/api', handle).post('/api', handle).get('/api/', handle).post('/api/', handle)
}
