import { describe, expect, test } from 'bun:test'
import { StackError } from '../errors.ts'
import { statusOf } from '../http/errors.ts'
import { readDripRequest } from './dripRequest.ts'

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function request(body: string | null, headers: Record<string, string> = {}) {
  const base: Record<string, string> = { 'content-type': 'application/json' }
  if (body !== null) base['content-length'] = String(new TextEncoder().encode(body).byteLength)
  return new Request('http://faucet.test/drip', { method: 'POST', body, headers: { ...base, ...headers } })
}

async function refusal(pending: Request): Promise<[number, string]> {
  const error = await readDripRequest(pending).then(
    () => null,
    (caught) => caught,
  )
  expect(error).toBeInstanceOf(StackError)
  return [statusOf(error)!, (error as StackError).message]
}

describe('the drip request', () => {
  test('a JSON body naming an address gives the checksummed address', async () => {
    expect(await readDripRequest(request(JSON.stringify({ address: ADDRESS.toLowerCase() })))).toBe(ADDRESS)
    expect(await readDripRequest(request(JSON.stringify({ address: ADDRESS }), { 'content-type': 'application/json; charset=utf-8' }))).toBe(ADDRESS)
  })

  test('no body, or an empty one, is 413', async () => {
    expect(await refusal(request(null))).toEqual([413, 'a body is required'])
    expect(await refusal(request(''))).toEqual([413, 'a body is required'])
  })

  test('a body over 4096 bytes is 413; exactly 4096 is read', async () => {
    const padded = (size: number) => {
      const base = JSON.stringify({ address: ADDRESS, pad: '' })
      return JSON.stringify({ address: ADDRESS, pad: 'x'.repeat(size - base.length) })
    }
    expect(await readDripRequest(request(padded(4096)))).toBe(ADDRESS)
    expect((await refusal(request(padded(4097))))[0]).toBe(413)
  })

  test('a chunked body is refused 400 without being read', async () => {
    expect((await refusal(request('{}', { 'transfer-encoding': 'chunked' })))[0]).toBe(400)
  })

  test('a declared length that is not a length, or does not match the body, is 400', async () => {
    expect(await refusal(request('{}', { 'content-length': '1e3' }))).toEqual([400, 'invalid content length'])
    expect(await refusal(request(JSON.stringify({ address: ADDRESS }), { 'content-length': '5' }))).toEqual([400, 'invalid content length'])
  })

  test('another content type, JSON that does not parse, and a missing or bad address are 400', async () => {
    expect(await refusal(request(JSON.stringify({ address: ADDRESS }), { 'content-type': 'text/plain' }))).toEqual([400, 'content-type must be application/json'])
    expect(await refusal(request('{"address":'))).toEqual([400, 'invalid json'])
    expect(await refusal(request('"0x70997970C51812dc3A010C7d01b50e0d17dc79C8"'))).toEqual([400, 'invalid address'])
    expect(await refusal(request('{}'))).toEqual([400, 'invalid address'])
    expect(await refusal(request('{"address":"0x1234"}'))).toEqual([400, 'invalid address'])
  })
})
