import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { networkInterfaces } from 'node:os'

/**
 * Fetching a URL that a stranger wrote (an NFT's token URI) without letting it reach this
 * machine or its private network (server-side request forgery). A URL is fetched only when it
 * is http(s), carries no credentials, and every address its host resolves to is public and not
 * one of this machine's own; the request then goes to the address that was checked, so a name
 * that resolves differently a moment later (DNS rebinding) cannot redirect it. Redirects are
 * followed by hand, each hop checked by the same rule. Anything refused, failed, slow or too
 * large is simply null: the caller shows no document.
 */

export type ResolvedAddress = { address: string; family: number }
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>
/** Whether a request may be sent to this address and port. */
export type AddressPolicy = (address: string, port: number) => boolean

export type PublicFetchOptions = {
  /** For the whole chain of hops: DNS, connections, redirects and the body. */
  timeoutMs: number
  /** The most bytes read from the document. */
  maxBytes: number
  /** Resolves a host name; defaults to the system resolver. */
  lookup?: Lookup
  /**
   * Which addresses may be reached; defaults to {@link publicOnly}. Tests only: it lets one
   * loopback server stand in for a public one. Production code never passes it.
   */
  allow?: AddressPolicy
}

const MAX_REDIRECTS = 3
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

/** The default policy: a public address that is not one of this machine's own. */
export const publicOnly: AddressPolicy = (address) => isPublicAddress(address) && !isOwnAddress(address)

/** The text of an http(s) document on a public host, or null when refused, failed, non-2xx, slow or too large. */
export async function fetchPublic(url: string, options: PublicFetchOptions): Promise<string | null> {
  const signal = AbortSignal.timeout(options.timeoutMs)
  try {
    return await followChain(url, options, signal)
  } catch {
    return null
  }
}

async function followChain(start: string, options: PublicFetchOptions, signal: AbortSignal): Promise<string | null> {
  let target = parseTarget(start)
  for (let redirects = 0; target; redirects++) {
    const response = await requestPinned(target, options, signal)
    if (!response) return null
    if (!REDIRECT_STATUSES.has(response.status)) {
      if (response.ok) return await readCapped(response, options.maxBytes)
      discard(response)
      return null
    }
    discard(response)
    const location = response.headers.get('location')
    if (location === null || redirects === MAX_REDIRECTS) return null
    // Resolved against the URL as written, not the address it was sent to.
    target = parseTarget(location, target)
  }
  return null
}

/** The URL when it is one this module will fetch: http(s), without user name or password. */
function parseTarget(text: string, base?: URL): URL | null {
  let url: URL
  try {
    url = new URL(text, base)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  if (url.username !== '' || url.password !== '') return null
  return url
}

/**
 * Resolves the host once, checks every address, and sends the request to a checked address
 * with the original name in `Host` and, for https, in the TLS server name, so the certificate
 * is still verified against the name (Bun's fetch: "Connecting to a specific address"). Null
 * when refused or when no address answers; no request is sent to a refused address.
 */
async function requestPinned(url: URL, options: PublicFetchOptions, signal: AbortSignal): Promise<Response | null> {
  const allow = options.allow ?? publicOnly
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const literal = isIP(host) !== 0
  const addresses = literal ? [host] : (await untilAborted((options.lookup ?? systemLookup)(host), signal)).map((one) => one.address)
  // Any private address refuses the name: which one a client would pick is not ours to guess.
  if (addresses.length === 0 || !addresses.every((address) => allow(address, port))) return null
  const init: BunFetchRequestInit = {
    headers: { Host: url.host },
    redirect: 'manual',
    signal,
    // An environment proxy would be chosen by the address, not the name, and would resolve on its own.
    proxy: false,
    ...(url.protocol === 'https:' && !literal ? { tls: { serverName: host } } : {}),
  }
  for (const [index, address] of addresses.entries()) {
    try {
      return await fetch(pinnedUrl(url, address, port), init)
    } catch (error) {
      // The next address may answer (an IPv6 one first on a host without IPv6, say).
      if (signal.aborted || index === addresses.length - 1) throw error
    }
  }
  return null
}

function pinnedUrl(url: URL, address: string, port: number): string {
  const host = isIP(address) === 6 ? `[${address}]` : address
  return `${url.protocol}//${host}:${port}${url.pathname}${url.search}`
}

/** The body as text, or null when its declared or streamed size is over the cap. */
async function readCapped(response: Response, maxBytes: number): Promise<string | null> {
  if (!response.body) return null
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    discard(response)
    return null
  }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of response.body) {
    size += chunk.byteLength
    if (size > maxBytes) return null
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function discard(response: Response): void {
  response.body?.cancel().catch(() => {})
}

/** `work`, or the abort reason as soon as the signal fires (a DNS lookup takes no signal). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

// ---- The address rule ----

type Range = readonly [base: string, prefix: number]

/** IPv4 ranges that are not the public internet (IANA special-purpose registry). */
const NON_PUBLIC_V4: readonly Range[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 3], // multicast, reserved and broadcast: everything from 224.0.0.0 up
]

/** IPv6 ranges inside global unicast (2000::/3) that are still not public. */
const NON_PUBLIC_V6: readonly Range[] = [
  ['2001::', 32], // Teredo: tunnels to an address we cannot check
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:20::', 28], // ORCHIDv2
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
]

/** Whether an IP address (v4 or v6 text) is a public internet address; anything else is false. */
export function isPublicAddress(ip: string): boolean {
  const version = isIP(ip)
  if (version === 4) return isPublicV4(ipv4Value(ip))
  if (version === 6 && !ip.includes('%')) return isPublicV6(ipv6Value(ip))
  return false
}

function isPublicV4(value: number): boolean {
  return !NON_PUBLIC_V4.some(([base, prefix]) => value >>> (32 - prefix) === ipv4Value(base) >>> (32 - prefix))
}

function isPublicV6(value: bigint): boolean {
  const embedded = embeddedIpv4(value)
  if (embedded !== null) return isPublicV4(embedded)
  // 6to4 carries an IPv4 address in bits 16..47; the relay would deliver to it.
  if (value >> 112n === 0x2002n) return isPublicV4(Number((value >> 80n) & 0xffffffffn))
  // Outside 2000::/3: unspecified, loopback, NAT64 (64:ff9b::/96), unique-local fc00::/7,
  // link-local fe80::/10, multicast ff00::/8 and the unassigned rest.
  if (value >> 125n !== 1n) return false
  return !NON_PUBLIC_V6.some(([base, prefix]) => value >> BigInt(128 - prefix) === ipv6Value(base) >> BigInt(128 - prefix))
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d, also :: and ::1) address. */
function embeddedIpv4(value: bigint): number | null {
  const high = value >> 32n
  return high === 0n || high === 0xffffn ? Number(value & 0xffffffffn) : null
}

function ipv4Value(ip: string): number {
  return ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0)
}

/** A valid IPv6 address (checked by isIP, no zone) as a 128-bit number. */
function ipv6Value(ip: string): bigint {
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => (group.includes('.') ? [ipv4Value(group) >>> 16, ipv4Value(group) & 0xffff] : [parseInt(group, 16)]))
  const [head = '', tail] = ip.split('::')
  const left = groups(head)
  const right = tail === undefined ? [] : groups(tail)
  const all = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
  return all.reduce((value, group) => (value << 16n) | BigInt(group), 0n)
}

/** Whether the address is assigned to one of this machine's interfaces (its ports are not for strangers). */
function isOwnAddress(ip: string): boolean {
  const key = addressKey(ip)
  return Object.values(networkInterfaces()).some((list) => list?.some((one) => addressKey(one.address.split('%')[0]!) === key))
}

/** One spelling per address, so ::ffff:10.0.0.5 and 10.0.0.5, or 2001:DB8::1 and 2001:db8:0::1, compare equal. */
function addressKey(ip: string): string {
  const version = isIP(ip)
  if (version === 4) return `4:${ipv4Value(ip)}`
  if (version !== 6) return ip
  const value = ipv6Value(ip)
  const embedded = value >> 32n === 0xffffn ? Number(value & 0xffffffffn) : null
  return embedded === null ? `6:${value}` : `4:${embedded}`
}
