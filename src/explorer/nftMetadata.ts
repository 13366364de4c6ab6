import { parseAbi, type Address } from 'viem'
import { createCache, type Clock } from '../cache.ts'
import type { RpcCall, RpcResult } from '../chain/rpc.ts'
import { viewCall, viewResult, type LiveNode } from './node.ts'
import { fetchPublic, type AddressPolicy } from './publicFetch.ts'

const uriAbi = parseAbi(['function tokenURI(uint256 tokenId) view returns (string)', 'function uri(uint256 id) view returns (string)'])

export type ItemMetadata = {
  tokenURI: string | null
  /** The metadata JSON the URI points at; null until resolved, or when it cannot be. */
  metadata: Record<string, unknown> | null
}

export type MetadataOptions = {
  /** How long an off-chain fetch may take. */
  fetchTimeoutMs: number
  /** The most bytes read from an off-chain document. */
  maxBytes: number
  /** How long a resolved item is kept; an unresolvable one is retried after a tenth of it. */
  ttlMs: number
}

export const METADATA_DEFAULTS: MetadataOptions = { fetchTimeoutMs: 3000, maxBytes: 256 * 1024, ttlMs: 10 * 60_000 }

/** The items an address's answer resolves in its own batch; the rest wait for the background task. */
const IN_BATCH = 24
/** The most items kept, past which the least recently used go. */
const MAX_ITEMS = 50_000

type Job = { token: Address; tokenId: string; standard: 'erc721' | 'erc1155' }
const keyOf = (token: string, tokenId: string) => `${token.toLowerCase()}:${tokenId}`

/**
 * Off-chain NFT metadata (docs/explorer.md): resolved by a background task, one item at
 * a time, so a collection page never waits on dozens of token URIs; a cold collection first
 * shows its items without metadata. `data:` URIs are decoded in place; http(s) documents are
 * fetched with a short timeout and a size cap, and only from public hosts (a token URI is written
 * by whoever deployed the contract; see publicFetch.ts); other schemes (ipfs:) stay unresolved.
 */
export class NftMetadata {
  /** The items kept, the most recently resolved last; an expired one still answers get() while it is asked again. */
  private readonly cache
  private readonly queue: Job[] = []
  private readonly queued = new Set<string>()
  private draining = false

  constructor(
    private readonly node: LiveNode,
    private readonly options: MetadataOptions = METADATA_DEFAULTS,
    /** Tests only: lets a loopback server stand in for a public host. Production leaves it out. */
    private readonly allowForTests?: AddressPolicy,
    clock?: Clock,
  ) {
    this.cache = createCache<string, ItemMetadata>({ max: MAX_ITEMS, ttl: options.ttlMs, clock })
  }

  /** The item's metadata when resolved and fresh; otherwise undefined, and it is queued. */
  get(job: Job): ItemMetadata | undefined {
    const key = keyOf(job.token, job.tokenId)
    if (this.cache.has(key)) return this.cache.get(key)
    this.enqueue(job)
    return this.cache.peek(key, { allowStale: true })
  }

  /** Resolves one item now (the item route), through the same cache. */
  async resolve(job: Job): Promise<ItemMetadata> {
    const key = keyOf(job.token, job.tokenId)
    if (this.cache.has(key)) return this.cache.get(key)!
    const stale = this.cache.peek(key, { allowStale: true })
    return (await this.fetchItem(job)) ?? stale ?? { tokenURI: null, metadata: null }
  }

  private enqueue(job: Job): void {
    const key = keyOf(job.token, job.tokenId)
    if (this.queued.has(key) || this.queue.length >= 10_000) return
    this.queued.add(key)
    this.queue.push(job)
    if (!this.draining) void this.drain()
  }

  private async drain(): Promise<void> {
    this.draining = true
    try {
      while (this.queue.length > 0) {
        const job = this.queue.shift()!
        const resolved = await this.fetchItem(job).catch(() => null)
        this.queued.delete(keyOf(job.token, job.tokenId))
        // The node is unreachable: stop here; the next page view queues the items again.
        if (resolved === null) {
          for (const rest of this.queue.splice(0)) this.queued.delete(keyOf(rest.token, rest.tokenId))
          return
        }
      }
    } finally {
      this.draining = false
    }
  }

  /**
   * The token-URI reads of the items not resolved yet (at most IN_BATCH), to go in a route's own
   * batch, and how to read their answers: a `data:` URI is decoded there and then, so what the
   * chain itself holds shows on the first view; an off-chain document is left to the background
   * task, which `get` queues.
   */
  plan(jobs: Job[]): { calls: RpcCall[]; read: (results: RpcResult[] | null, offset: number) => void } {
    const missing = jobs.filter((job) => !this.cache.has(keyOf(job.token, job.tokenId))).slice(0, IN_BATCH)
    const read = (results: RpcResult[] | null, offset: number) => {
      if (results === null) return
      missing.forEach((job, index) => {
        const tokenURI = uriResult(results, offset + index, job)
        if (tokenURI === null) this.remember(job, { tokenURI: null, metadata: null })
        else if (tokenURI.startsWith('data:')) this.remember(job, { tokenURI, metadata: parseDocument(decodeDataUri(tokenURI, this.options.maxBytes)) })
      })
    }
    return { calls: missing.map(uriCall), read }
  }

  /** Reads the token URI from the node and resolves it; null when the node cannot be reached. */
  private async fetchItem(job: Job): Promise<ItemMetadata | null> {
    const results = await this.node.batch([uriCall(job)])
    if (results === null) return null
    const tokenURI = uriResult(results, 0, job)
    const metadata = tokenURI ? parseDocument(await this.document(tokenURI).catch(() => null)) : null
    return this.remember(job, { tokenURI, metadata })
  }

  /** Keeps an item's answer: a resolved one for the ttl, one without metadata a tenth of it. */
  private remember(job: Job, value: ItemMetadata): ItemMetadata {
    this.cache.set(keyOf(job.token, job.tokenId), value, { ttl: value.metadata ? this.options.ttlMs : this.options.ttlMs / 10 })
    return value
  }

  /** The text of the document a token URI points at, or null when it cannot be read. */
  private async document(uri: string): Promise<string | null> {
    if (uri.startsWith('data:')) return decodeDataUri(uri, this.options.maxBytes)
    if (!/^https?:\/\//i.test(uri)) return null
    const { fetchTimeoutMs: timeoutMs, maxBytes } = this.options
    return fetchPublic(uri, { timeoutMs, maxBytes, allow: this.allowForTests })
  }
}

const uriCall = (job: Job): RpcCall => viewCall(job.token, uriAbi, job.standard === 'erc1155' ? 'uri' : 'tokenURI', [BigInt(job.tokenId)])

/** The token URI answered at `index`; ERC-1155's "{id}" stands for the id as 64 lower-case hex digits. */
function uriResult(results: RpcResult[], index: number, job: Job): string | null {
  const tokenURI = viewResult<string>(results, index, uriAbi, job.standard === 'erc1155' ? 'uri' : 'tokenURI')
  if (tokenURI && job.standard === 'erc1155') return tokenURI.replaceAll('{id}', BigInt(job.tokenId).toString(16).padStart(64, '0'))
  return tokenURI
}

/** A metadata document: a JSON object, or null for anything else. */
function parseDocument(text: string | null): Record<string, unknown> | null {
  if (text === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
}

/** The text of a data: URI (base64 or percent-encoded), or null when it is not one or too large. */
export function decodeDataUri(uri: string, maxBytes: number): string | null {
  const comma = uri.indexOf(',')
  if (!uri.startsWith('data:') || comma < 0) return null
  const header = uri.slice(5, comma)
  const payload = uri.slice(comma + 1)
  if (payload.length > maxBytes * 2) return null
  const bytes = header.endsWith(';base64') ? Buffer.from(payload, 'base64') : percentDecoded(payload)
  return bytes !== null && bytes.byteLength <= maxBytes ? bytes.toString('utf8') : null
}

/** Percent-decoded bytes, or null for a malformed escape such as `%E0%A4%A` (decodeURIComponent throws). */
function percentDecoded(payload: string): Buffer | null {
  try {
    return Buffer.from(decodeURIComponent(payload), 'utf8')
  } catch {
    return null
  }
}
