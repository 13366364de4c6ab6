import { afterAll, describe, expect, test } from 'bun:test'
import { networkInterfaces } from 'node:os'
import { sleep } from '../time/sleep.ts'
import { fetchPublic, isPublicAddress, publicOnly, type AddressPolicy, type Lookup } from './publicFetch.ts'

/**
 * How long the slow server holds out (and the time limit of a fetch that must not wait it out),
 * and the bound a give-up must beat: both far past the fetch's time limit and any stall of a
 * loaded machine, so that only a time limit that did not hold fails the test.
 */
const HOLD_MS = 20_000
const GIVES_UP_WITHIN_MS = 10_000

describe('isPublicAddress', () => {
  // Each special range with an address on both sides of its edges.
  const notPublic = [
    ...['0.0.0.0', '0.255.255.255', '10.0.0.0', '10.255.255.255', '100.64.0.0', '100.127.255.255', '127.0.0.1', '127.255.255.255'],
    ...['169.254.0.0', '169.254.169.254', '169.254.255.255', '172.16.0.0', '172.31.255.255', '192.0.0.0', '192.0.0.255', '192.0.2.0', '192.0.2.255'],
    ...['192.88.99.1', '192.168.0.0', '192.168.255.255', '198.18.0.0', '198.19.255.255', '198.51.100.0', '198.51.100.255', '203.0.113.0', '203.0.113.255'],
    ...['224.0.0.0', '239.255.255.255', '240.0.0.1', '255.255.255.255'],
    // IPv6: unspecified, loopback, IPv4-mapped / -compatible to private, NAT64, ULA, link-local, multicast.
    ...['::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.5', '::ffff:169.254.169.254', '::127.0.0.1', '::ffff:0:0'],
    ...['64:ff9b::7f00:1', '64:ff9b::808:808', 'fc00::', 'fd12:3456::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'fe80::', 'fe80::1', 'febf:ffff::1', 'ff00::', 'ff02::1'],
    // Inside 2000::/3: documentation, Teredo, 6to4 of a private IPv4; a zone id (link-local only).
    ...['2001:db8::', '2001:db8::1', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', '2001::', '2001::1', '2001:0:ffff::1', '2002:7f00:1::1', '2002:c0a8:101::1', '2002::', '3fff::1'],
    'fe80::1%eth0',
    // Not an IP address at all.
    ...['localhost', '', '1.2.3', '127.1', 'example.com', '::g'],
  ]
  const publicOnes = [
    ...['8.8.8.8', '1.1.1.1', '1.0.0.0', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0'],
    ...['169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '191.255.255.255', '192.0.1.0', '192.0.3.0', '192.167.255.255', '192.169.0.0'],
    ...['198.17.255.255', '198.20.0.0', '198.51.99.255', '198.51.101.0', '203.0.112.255', '203.0.114.0', '223.255.255.255'],
    ...['2606:4700::1111', '2001:4860:4860::8888', '::ffff:8.8.8.8', '2002:808:808::1', '2001:1::1', '2001:db7:ffff:ffff::1', '2001:db9::1', '2003::1', '2a00:1450:4001::200e'],
  ]
  test.each(notPublic)('%p is not public', (ip) => expect(isPublicAddress(ip)).toBe(false))
  test.each(publicOnes)('%p is public', (ip) => expect(isPublicAddress(ip)).toBe(true))

  test("the default policy refuses every one of this machine's interface addresses", () => {
    const own = Object.values(networkInterfaces()).flatMap((list) => list ?? [])
    expect(own.length).toBeGreaterThan(0)
    for (const { address } of own) expect(publicOnly(address.split('%')[0]!, 80)).toBe(false)
  })
})

/** A local server that counts the requests it gets, by path. */
function countingServer(hostname: string, answer: (url: URL, request: Request) => Response | Promise<Response>) {
  const hits: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname,
    fetch: (request) => {
      const url = new URL(request.url)
      hits.push(url.pathname)
      return answer(url, request)
    },
  })
  return { server, hits, port: server.port! }
}

// What an attacker wants to reach: it must never see a request.
const internal = countingServer('127.0.0.1', () => Response.json({ secret: true }))

// Stands in for a public host, allowed by the test-only policy below.
const hosts: string[] = []
const stand = countingServer('127.0.0.1', async (url, request) => {
  hosts.push(request.headers.get('host') ?? '')
  const redirect = (location: string) => new Response(null, { status: 302, headers: { Location: location } })
  const path = url.pathname
  if (path === '/doc') return Response.json({ name: 'public' })
  if (path === '/to-internal') return redirect(`http://127.0.0.1:${internal.port}/x`)
  if (path === '/to-internal-by-name') return redirect(`http://localhost:${internal.port}/x`)
  if (path === '/to-cloud-metadata') return redirect('http://169.254.169.254/latest/meta-data/')
  if (path === '/to-credentials') return redirect(`http://user:pw@127.0.0.1:${stand.port}/doc`)
  if (path === '/relative') return redirect('doc')
  if (path.startsWith('/chain/')) {
    const left = Number(path.slice('/chain/'.length))
    return left === 0 ? Response.json({ name: 'end of chain' }) : redirect(`/chain/${left - 1}`)
  }
  if (path === '/big') return new Response('x'.repeat(5000))
  if (path === '/big-streamed') {
    // No content-length: only the streamed count can stop it.
    const stream = new ReadableStream({
      pull(controller) {
        controller.enqueue(new Uint8Array(1000))
      },
    })
    return new Response(stream)
  }
  if (path === '/slow') {
    // A server slower than the fetch's time limit; it lets go when the fetch does.
    await sleep(HOLD_MS, request.signal)
    return Response.json({ name: 'too late' })
  }
  return new Response('missing', { status: 404 })
})

let ipv6: ReturnType<typeof countingServer> | null = null
try {
  ipv6 = countingServer('::1', () => Response.json({ secret: true }))
} catch {
  // No IPv6 loopback on this machine: that case is skipped.
}

afterAll(() => {
  internal.server.stop(true)
  stand.server.stop(true)
  ipv6?.server.stop(true)
})

/** The test-only policy: exactly one loopback port counts as public. */
const onlyPort =
  (port: number): AddressPolicy =>
  (address, p) =>
    address === '127.0.0.1' && p === port
const limits = { timeoutMs: 300, maxBytes: 1024 }
const viaStand = { ...limits, allow: onlyPort(stand.port) }

describe('fetchPublic refuses without sending a request', () => {
  const refused = () => [
    `http://127.0.0.1:${internal.port}/x`,
    `http://localhost:${internal.port}/x`,
    `http://2130706433:${internal.port}/x`,
    `http://0x7f000001:${internal.port}/x`,
    `http://0x7f.1:${internal.port}/x`,
    `http://127.1:${internal.port}/x`,
    `http://[::ffff:127.0.0.1]:${internal.port}/x`,
    `http://user:pw@127.0.0.1:${internal.port}/x`,
    `https://127.0.0.1:${internal.port}/x`,
  ]
  test('loopback in any spelling, by name or with credentials', async () => {
    for (const url of refused()) expect(await fetchPublic(url, limits)).toBeNull()
    expect(internal.hits).toEqual([])
  })

  test.skipIf(ipv6 === null)('IPv6 loopback', async () => {
    expect(await fetchPublic(`http://[::1]:${ipv6!.port}/x`, limits)).toBeNull()
    expect(ipv6!.hits).toEqual([])
  })

  test('credentials are refused even for an allowed address', async () => {
    const allowInternal = { ...limits, allow: onlyPort(internal.port) }
    expect(await fetchPublic(`http://user:pw@127.0.0.1:${internal.port}/x`, allowInternal)).toBeNull()
    expect(await fetchPublic(`http://user@127.0.0.1:${internal.port}/x`, allowInternal)).toBeNull()
    expect(internal.hits).toEqual([])
  })

  test('schemes other than http(s) and unparsable URLs', async () => {
    for (const url of ['file:///etc/passwd', `ftp://127.0.0.1:${internal.port}/`, 'gopher://x/', 'not a url', 'http://']) expect(await fetchPublic(url, limits)).toBeNull()
  })

  test('a name resolving to a private address, or to a public and a private one', async () => {
    const toLoopback: Lookup = async () => [{ address: '127.0.0.1', family: 4 }]
    const mixed: Lookup = async () => [
      { address: '8.8.8.8', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ]
    const toMapped: Lookup = async () => [{ address: '::ffff:127.0.0.1', family: 6 }]
    expect(await fetchPublic(`http://rebind.test:${internal.port}/x`, { ...limits, lookup: toLoopback })).toBeNull()
    expect(await fetchPublic(`http://mixed.test:${internal.port}/x`, { ...limits, lookup: mixed })).toBeNull()
    expect(await fetchPublic(`http://mapped.test:${internal.port}/x`, { ...limits, lookup: toMapped })).toBeNull()
    expect(await fetchPublic(`http://nothing.test/x`, { ...limits, lookup: async () => [] })).toBeNull()
    expect(await fetchPublic(`http://broken.test/x`, { ...limits, lookup: () => Promise.reject(new Error('ENOTFOUND')) })).toBeNull()
    expect(internal.hits).toEqual([])
  })
})

describe('fetchPublic with one allowed server', () => {
  test('fetches the document', async () => {
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/doc`, viaStand)).toBe('{"name":"public"}')
  })

  test('connects to the address it checked, naming the host in Host, with one lookup per hop', async () => {
    const asked: string[] = []
    const lookup: Lookup = async (name) => {
      asked.push(name)
      return [{ address: '127.0.0.1', family: 4 }]
    }
    hosts.length = 0
    expect(await fetchPublic(`http://docs.test:${stand.port}/relative`, { ...viaStand, lookup })).toBe('{"name":"public"}')
    // The relative Location resolved against the name, not the address.
    expect(asked).toEqual(['docs.test', 'docs.test'])
    expect(hosts).toEqual([`docs.test:${stand.port}`, `docs.test:${stand.port}`])
  })

  test('a redirect to another loopback port, by address or by name, is refused', async () => {
    const before = stand.hits.length
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/to-internal`, viaStand)).toBeNull()
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/to-internal-by-name`, viaStand)).toBeNull()
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/to-credentials`, viaStand)).toBeNull()
    expect(internal.hits).toEqual([])
    expect(stand.hits.slice(before)).toEqual(['/to-internal', '/to-internal-by-name', '/to-credentials'])
  })

  test('a redirect to the cloud metadata address is refused at once, not timed out', async () => {
    const started = performance.now()
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/to-cloud-metadata`, { ...viaStand, timeoutMs: HOLD_MS })).toBeNull()
    expect(performance.now() - started).toBeLessThan(GIVES_UP_WITHIN_MS)
  })

  test('three redirects are followed; a fourth is refused without a request', async () => {
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/chain/3`, viaStand)).toBe('{"name":"end of chain"}')
    const before = stand.hits.length
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/chain/4`, viaStand)).toBeNull()
    expect(stand.hits.slice(before)).toEqual(['/chain/4', '/chain/3', '/chain/2', '/chain/1'])
  })

  test('an oversized body, declared or streamed, a non-2xx and a slow server give null', async () => {
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/big`, viaStand)).toBeNull()
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/big-streamed`, viaStand)).toBeNull()
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/missing`, viaStand)).toBeNull()
    const started = performance.now()
    expect(await fetchPublic(`http://127.0.0.1:${stand.port}/slow`, viaStand)).toBeNull()
    expect(performance.now() - started).toBeLessThan(GIVES_UP_WITHIN_MS)
  })

  test('the timeout covers the DNS lookup', async () => {
    const hanging: Lookup = () => new Promise(() => {})
    const started = performance.now()
    expect(await fetchPublic(`http://docs.test:${stand.port}/doc`, { ...viaStand, lookup: hanging })).toBeNull()
    expect(performance.now() - started).toBeLessThan(GIVES_UP_WITHIN_MS)
  })
})
