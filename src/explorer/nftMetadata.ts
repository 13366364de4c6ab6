import { parseAbi, type Address } from 'viem'
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

type Job = { token: Address; tokenId: string; standard: 'erc721' | 'erc1155' }
const keyOf = (token: string, tokenId: string) => `${token.toLowerCase()}:${tokenId}`

/**
 * Off-chain NFT metadata (spec 03 "NFT collection"): resolved by a background task, one item at
 * a time, so a collection page never waits on dozens of token URIs; a cold collection first
 * shows its items without metadata. `data:` URIs are decoded in place; http(s) documents are
 * fetched with a short timeout and a size cap, and only from public hosts (a token URI is written
 * by whoever deployed the contract; see publicFetch.ts); other schemes (ipfs:) stay unresolved.
 */
export class NftMetadata {
  private readonly cache = new Map<string, { value: ItemMetadata; expires: number }>()
  private readonly queue: Job[] = []
  private readonly queued = new Set<string>()
  private draining = false

  constructor(
    private readonly node: LiveNode,
    private readonly options: MetadataOptions = METADATA_DEFAULTS,
    /** Tests only: lets a loopback server stand in for a public host. Production leaves it out. */
    private readonly allowForTests?: AddressPolicy,
  ) {}

  /** The item's metadata when resolved and fresh; otherwise undefined, and it is queued. */
  get(job: Job): ItemMetadata | undefined {
    const hit = this.cache.get(keyOf(job.token, job.tokenId))
    if (hit && hit.expires > Date.now()) return hit.value
    this.enqueue(job)
    return hit?.value
  }

  /** Resolves one item now (the item route), through the same cache. */
  async resolve(job: Job): Promise<ItemMetadata> {
    const hit = this.cache.get(keyOf(job.token, job.tokenId))
    if (hit && hit.expires > Date.now()) return hit.value
    return (await this.fetchItem(job)) ?? hit?.value ?? { tokenURI: null, metadata: null }
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

  /** Reads the token URI from the node and resolves it; null when the node cannot be reached. */
  private async fetchItem(job: Job): Promise<ItemMetadata | null> {
    const functionName = job.standard === 'erc1155' ? 'uri' : 'tokenURI'
    const results = await this.node.batch([viewCall(job.token, uriAbi, functionName, [BigInt(job.tokenId)])])
    if (results === null) return null
    let tokenURI = viewResult<string>(results, 0, uriAbi, functionName)
    // ERC-1155: "{id}" stands for the id as 64 lower-case hex digits.
    if (tokenURI && job.standard === 'erc1155') tokenURI = tokenURI.replaceAll('{id}', BigInt(job.tokenId).toString(16).padStart(64, '0'))
    const metadata = tokenURI ? await this.document(tokenURI).catch(() => null) : null
    const value = { tokenURI, metadata }
    const ttl = metadata ? this.options.ttlMs : this.options.ttlMs / 10
    this.cache.set(keyOf(job.token, job.tokenId), { value, expires: Date.now() + ttl })
    if (this.cache.size > 50_000) this.cache.delete(this.cache.keys().next().value!)
    return value
  }

  private async document(uri: string): Promise<Record<string, unknown> | null> {
    let text: string | null = null
    if (uri.startsWith('data:')) text = decodeDataUri(uri, this.options.maxBytes)
    else if (/^https?:\/\//i.test(uri)) {
      const { fetchTimeoutMs: timeoutMs, maxBytes } = this.options
      text = await fetchPublic(uri, { timeoutMs, maxBytes, allow: this.allowForTests })
    }
    if (text === null) return null
    const parsed = JSON.parse(text) as unknown
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null
  }
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
