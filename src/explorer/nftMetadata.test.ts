import { afterAll, expect, test } from 'bun:test'
import { decodeFunctionData, encodeAbiParameters, parseAbi } from 'viem'
import { sleep } from '../time/sleep.ts'
import { decodeDataUri, NftMetadata } from './nftMetadata.ts'
import { LiveNode } from './node.ts'
import type { AddressPolicy } from './publicFetch.ts'

const TOKEN = '0x610178dA211FEF7D417bC0e6FeD39F05609AD788' as const
const uriAbi = parseAbi(['function tokenURI(uint256 tokenId) view returns (string)', 'function uri(uint256 id) view returns (string)'])

// Off-chain documents: one good, one too large, one that never answers in time. The slow one
// holds far past the fetch's time limit and any stall of a loaded machine, and lets go when the
// fetch does.
const HOLD_MS = 20_000
const GIVES_UP_WITHIN_MS = 10_000
const documentRequests: string[] = []
const documents = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: async (request) => {
    const path = new URL(request.url).pathname
    documentRequests.push(path)
    if (path === '/big.json') return new Response(JSON.stringify({ name: 'x'.repeat(5000) }))
    if (path === '/slow.json') {
      await sleep(HOLD_MS, request.signal)
      return Response.json({ name: 'too late' })
    }
    return Response.json({ name: `document ${path}` })
  },
})

/** A node whose token answers tokenURI(id) / uri(id) from this table. */
const uris: Record<string, string> = {
  '1': `data:application/json;base64,${Buffer.from(JSON.stringify({ name: 'inline' })).toString('base64')}`,
  '2': `data:application/json,${encodeURIComponent(JSON.stringify({ name: 'percent' }))}`,
  '3': `http://127.0.0.1:${documents.port}/three.json`,
  '4': `http://127.0.0.1:${documents.port}/big.json`,
  '5': `http://127.0.0.1:${documents.port}/slow.json`,
  '6': 'ipfs://bafy/6.json',
  '7': `http://127.0.0.1:${documents.port}/{id}.json`,
  '8': 'data:application/json,%7B%22name%22%3A%22broken%E0%A4%A%22%7D',
}
const node = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: async (request) => {
    const calls = (await request.json()) as Array<{ id: number; params: [{ data: `0x${string}` }] }>
    return Response.json(
      calls.map((call) => {
        const { args } = decodeFunctionData({ abi: uriAbi, data: call.params[0].data })
        const uri = uris[String(args[0])]
        return uri ? { jsonrpc: '2.0', id: call.id, result: encodeAbiParameters([{ type: 'string' }], [uri]) } : { jsonrpc: '2.0', id: call.id, error: { code: 3, message: 'execution reverted' } }
      }),
    )
  },
})
afterAll(() => {
  documents.stop(true)
  node.stop(true)
})

// The documents server is on loopback, which production refuses; the test-only policy lets
// exactly its port stand in for a public host.
const documentsOnly: AddressPolicy = (address, port) => address === '127.0.0.1' && port === documents.port
const limits = { fetchTimeoutMs: 300, maxBytes: 1024, ttlMs: 60_000 }
const metadata = new NftMetadata(new LiveNode(`http://127.0.0.1:${node.port}`, 1000), limits, documentsOnly)
const resolve = (tokenId: string, standard: 'erc721' | 'erc1155' = 'erc721') => metadata.resolve({ token: TOKEN, tokenId, standard })

test('data: URIs are decoded in place, base64 or percent-encoded; a malformed one gives no metadata', async () => {
  expect(await resolve('1')).toEqual({ tokenURI: uris['1']!, metadata: { name: 'inline' } })
  expect((await resolve('2')).metadata).toEqual({ name: 'percent' })
  expect(await resolve('8')).toEqual({ tokenURI: uris['8']!, metadata: null })
})

test('with the production policy a token URI on loopback gives no metadata and costs no request', async () => {
  const production = new NftMetadata(new LiveNode(`http://127.0.0.1:${node.port}`, 1000), limits)
  const before = documentRequests.length
  expect(await production.resolve({ token: TOKEN, tokenId: '3', standard: 'erc721' })).toEqual({ tokenURI: uris['3']!, metadata: null })
  expect(await production.resolve({ token: TOKEN, tokenId: '7', standard: 'erc1155' })).toMatchObject({ metadata: null })
  expect(documentRequests.length).toBe(before)
})

test('http documents are fetched; too large or too slow ones stay unresolved', async () => {
  expect((await resolve('3')).metadata).toEqual({ name: 'document /three.json' })
  expect((await resolve('4')).metadata).toBeNull()
  const started = performance.now()
  expect((await resolve('5')).metadata).toBeNull()
  expect(performance.now() - started).toBeLessThan(GIVES_UP_WITHIN_MS)
})

test('other schemes and reverted calls give no metadata; ERC-1155 ids fill {id}', async () => {
  expect(await resolve('6')).toEqual({ tokenURI: 'ipfs://bafy/6.json', metadata: null })
  expect(await resolve('99')).toEqual({ tokenURI: null, metadata: null })
  const multi = await resolve('7', 'erc1155')
  expect(multi.tokenURI).toBe(`http://127.0.0.1:${documents.port}/${'7'.padStart(64, '0')}.json`)
  expect(multi.metadata).toEqual({ name: `document /${'7'.padStart(64, '0')}.json` })
})

test('get() answers from the cache and queues what it lacks for the background task', async () => {
  const fresh = new NftMetadata(new LiveNode(`http://127.0.0.1:${node.port}`, 1000))
  expect(fresh.get({ token: TOKEN, tokenId: '1', standard: 'erc721' })).toBeUndefined()
  for (let tries = 0; tries < 100 && !fresh.get({ token: TOKEN, tokenId: '1', standard: 'erc721' }); tries++) await Bun.sleep(10)
  expect(fresh.get({ token: TOKEN, tokenId: '1', standard: 'erc721' })?.metadata).toEqual({ name: 'inline' })
})

test('with the node unreachable nothing is cached, so the item is tried again later', async () => {
  const away = new NftMetadata(new LiveNode('http://127.0.0.1:9', 200))
  expect(await away.resolve({ token: TOKEN, tokenId: '1', standard: 'erc721' })).toEqual({ tokenURI: null, metadata: null })
  expect(away.get({ token: TOKEN, tokenId: '1', standard: 'erc721' })).toBeUndefined()
})

test('decodeDataUri refuses what is not a data URI or is over the cap', () => {
  expect(decodeDataUri('http://x', 100)).toBeNull()
  expect(decodeDataUri(`data:text/plain,${'a'.repeat(300)}`, 100)).toBeNull()
  expect(decodeDataUri('data:text/plain,hello%20there', 100)).toBe('hello there')
})

test('decodeDataUri gives null, not an exception, for malformed percent-encoding', () => {
  for (const bad of ['data:text/plain,%', 'data:text/plain,%zz', 'data:text/plain,%E0%A4%A', 'data:text/plain,%C3']) expect(decodeDataUri(bad, 100)).toBeNull()
})

test('plan(): a route batches the token URIs it lacks; data: ones resolve there, others are left to the background', async () => {
  const planned = new NftMetadata(new LiveNode(`http://127.0.0.1:${node.port}`, 1000), limits, documentsOnly)
  const job = (tokenId: string) => ({ token: TOKEN, tokenId, standard: 'erc721' as const })
  const before = documentRequests.length
  const plan = planned.plan([job('1'), job('2'), job('3'), job('99')])
  expect(plan.calls).toHaveLength(4)
  // The route's own calls come first in its batch: the plan reads its answers from an offset.
  const results = await new LiveNode(`http://127.0.0.1:${node.port}`, 1000).batch(plan.calls)
  plan.read([{ ok: true, value: '0x1' }, ...results!], 1)
  expect(planned.get(job('1'))).toEqual({ tokenURI: uris['1']!, metadata: { name: 'inline' } })
  expect(planned.get(job('2'))?.metadata).toEqual({ name: 'percent' })
  // A reverted call is an answer too: no URI, kept a while rather than asked at every view.
  expect(planned.get(job('99'))).toEqual({ tokenURI: null, metadata: null })
  // The http document was not fetched during the route: get() queues it for the background.
  expect(documentRequests.length).toBe(before)
  expect(planned.get(job('3'))).toBeUndefined()
  for (let tries = 0; tries < 100 && !planned.get(job('3')); tries++) await Bun.sleep(10)
  expect(planned.get(job('3'))?.metadata).toEqual({ name: 'document /three.json' })
  // What is resolved is not asked again; the node away leaves everything to a later view.
  expect(planned.plan([job('1'), job('2'), job('3')]).calls).toHaveLength(0)
  const away = planned.plan([job('4')])
  away.read(null, 0)
  expect(planned.plan([job('4')]).calls).toHaveLength(1)
})

test('a resolved item is kept its ttl, one without metadata a tenth of it; an expired one answers get() while it is asked again', async () => {
  let now = 1000
  const kept = new NftMetadata(new LiveNode(`http://127.0.0.1:${node.port}`, 1000), limits, documentsOnly, () => now)
  const job = (tokenId: string) => ({ token: TOKEN, tokenId, standard: 'erc721' as const })
  await kept.resolve(job('1'))
  await kept.resolve(job('6'))
  now += limits.ttlMs / 10 - 1
  expect(kept.plan([job('1'), job('6')]).calls).toHaveLength(0)
  now += 2
  // The ipfs: item has no metadata: its tenth is up; the inline one is still kept.
  expect(kept.plan([job('1'), job('6')]).calls).toHaveLength(1)
  now += limits.ttlMs
  expect(kept.plan([job('1')]).calls).toHaveLength(1)
  // Expired, yet what was resolved answers at once while the background task asks again.
  expect(kept.get(job('1'))?.metadata).toEqual({ name: 'inline' })
})
