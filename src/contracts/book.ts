import type { SpoolDb } from '../spool/engine.ts'
import type { Abi, Address, Hex } from 'viem'
import { createCache, type Clock } from '../cache.ts'
import { fromChain, type Chain } from '../chain/client.ts'
import { NodeOutage } from '../chain/outage.ts'
import { NodeUnreachableError } from '../errors.ts'
import { checksum } from '../eth/address.ts'
import { verifiedByCodeHash, verifiedCodeShapes, verifiedContracts, verifiedProxy, type MatchKind, type VerifiedContract } from '../spool/verified.ts'
import { bare, maskedRuntimeHash } from '../verify/bytecode.ts'
import type { ArtifactIndex } from './artifacts.ts'
import { detectProxy, type DetectedProxy } from './proxy.ts'

/**
 * How the stack knows a contract's ABI and sources:
 * - `verified`: a verification of this address (Etherscan's API, Sourcify's, or the stack's own
 *   deployment under `stack dev`);
 * - `similar`: no verification of its own, but its runtime code (immutables and metadata masked)
 *   equals a verified contract's, every pair a factory makes (`via` names that contract);
 * - `artifact`: its runtime code matches a build artifact `stack dev` was given (`dev.artifacts`).
 */
export type KnownBy =
  | { kind: 'verified'; match: MatchKind; verification: VerifiedContract }
  | { kind: 'similar'; match: MatchKind; via: Address; verification: VerifiedContract }
  | { kind: 'artifact'; match: MatchKind; path: string; sources: Record<string, string> | null }

/** A proxy read from the chain, with the contract its calls go to. */
export type ProxyInfo = {
  /** The standard read from the chain; `recorded` when only a `verifyproxycontract` says so. */
  kind: 'eip1967' | 'eip1967-beacon' | 'eip1822' | 'eip1167' | 'recorded'
  implementation: Address
  /** The implementation as the book knows it; null when it is not known. */
  target: KnownContract | null
}

export type KnownContract = {
  address: Address
  name: string
  abi: Abi
  by: KnownBy
  /** Set when the address is a proxy: decode its calls with the target's ABI as well. */
  proxy: ProxyInfo | null
}

/**
 * The one place that says what the stack knows of a contract; the explorer (decoding, the
 * Code, Read and Write tabs) and the Etherscan-compatible API ask it. It reads the spool's
 * verifications; a lookup that needs the chain (the same-code rule, proxies) reads the node.
 */
export type ContractBook = {
  /** What is known of `address`, or null. */
  lookup: (address: string) => Promise<KnownContract | null>
  /**
   * The proxy `address` is, known or not itself (a clone is never verified on its own), or null.
   * Optional so that a book made by hand (a test's) need not have it; createContractBook's has.
   */
  proxyOf?: (address: string) => Promise<ProxyInfo | null>
}

export type ContractBookOptions = {
  /** The node: without it the book knows only each address's own verification. */
  chain?: Chain
  /** Local build artifacts (`stack dev` only): a contract whose code matches one is known by it. */
  artifacts?: ArtifactIndex | null
  clock?: Clock
}

/**
 * Code at an address changes only when a reorganisation takes its creation back (a
 * self-destruct now empties only a contract of the same transaction): a read is kept a minute,
 * so a rolled-back contract is forgotten within one. No code (an account, or a contract yet to
 * come) may change any block: it is kept two seconds, so a page that names an account many times
 * asks the node once.
 */
const CODE_TTL_MS = 60_000
const NO_CODE_TTL_MS = 2_000
/** A proxy's implementation changes with one transaction (an upgrade): kept seconds only. */
const PROXY_TTL_MS = 5_000
/** A proxy of a proxy is followed this far, and no further (a loop of proxies ends). */
const MAX_PROXY_DEPTH = 2
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * A book over the spool's verifications of each address; with the node, also the same-code rule
 * (code equal to a verified contract's once immutables and metadata are masked) and proxies;
 * with local artifacts, contracts that match one. An unreachable node leaves only what the
 * spool says.
 */
export function createContractBook(reader: SpoolDb, options: ContractBookOptions = {}): ContractBook & Required<Pick<ContractBook, 'proxyOf'>> {
  const { chain, artifacts = null, clock } = options
  // Per address: its code (bare hex), and its masked hashes by the set of immutable references they masked.
  const codes = createCache<string, { code: string; hashes: Map<string, Hex> }>({
    maxSize: 128 * 1024 * 1024,
    sizeCalculation: (entry) => Math.max(1, entry.code.length),
    ttl: CODE_TTL_MS,
    clock,
  })
  const proxies = createCache<string, { found: DetectedProxy | null }>({ max: 10_000, ttl: PROXY_TTL_MS, clock })
  // The verifications of the addresses looked up together (a page's) read in one query, not one each.
  const verificationOf = gathered((addresses) => verifiedContracts(reader, addresses))
  // A node that could not be reached is skipped for a moment: with the node gone (or hanging),
  // a page's lookups do not each wait out the timeout, nor does every request after it.
  const outage = new NodeOutage(clock)

  async function codeOf(address: string): Promise<{ code: string; hashes: Map<string, Hex> } | null> {
    if (!chain) return null
    const key = address.toLowerCase()
    const kept = codes.get(key)
    if (kept) return kept.code === '' ? null : kept
    const code = bare((await outage.read(() => fromChain(() => chain.publicClient.getCode({ address: key as Address })))) ?? '0x')
    const entry = { code, hashes: new Map<string, Hex>() }
    codes.set(key, entry, code === '' ? { ttl: NO_CODE_TTL_MS } : {})
    return code === '' ? null : entry
  }

  async function similar(entry: { code: string; hashes: Map<string, Hex> }): Promise<KnownBy | null> {
    for (const { codeHash, immutableReferences } of await verifiedCodeShapes(reader)) {
      const key = JSON.stringify(immutableReferences)
      let hash = entry.hashes.get(key)
      if (!hash) entry.hashes.set(key, (hash = maskedRuntimeHash(entry.code, { immutableReferences })))
      if (hash !== codeHash) continue
      const verification = await verifiedByCodeHash(reader, codeHash)
      if (verification) return { kind: 'similar', match: verification.match, via: verification.address, verification }
    }
    return null
  }

  async function lookup(address: string, depth: number): Promise<KnownContract | null> {
    if (!ADDRESS.test(address)) return null
    const own = await verificationOf(address.toLowerCase())
    let known: Omit<KnownContract, 'proxy'> | null = own
      ? { address: checksum(address), name: own.name, abi: own.details.abi as Abi, by: { kind: 'verified', match: own.match, verification: own } }
      : null
    if (!known) {
      const entry = await unlessUnreachable(() => codeOf(address), null)
      if (!entry) return null
      const by = await similar(entry)
      if (by && by.kind === 'similar') known = { address: checksum(address), name: by.verification.name, abi: by.verification.details.abi as Abi, by }
      const found = by ? null : artifacts?.match(entry.code)
      if (found) known = { address: checksum(address), name: found.name, abi: found.abi, by: { kind: 'artifact', match: found.match, path: found.path, sources: found.sources } }
    }
    if (!known) return null
    return { ...known, proxy: await proxyAt(address, depth) }
  }

  async function proxyAt(address: string, depth: number): Promise<ProxyInfo | null> {
    if (depth >= MAX_PROXY_DEPTH || !ADDRESS.test(address)) return null
    const recorded = await verifiedProxy(reader, address)
    const detected = await unlessUnreachable(() => detect(address), null)
    const implementation = detected?.implementation ?? recorded?.implementation
    if (!implementation) return null
    return { kind: detected?.kind ?? 'recorded', implementation: checksum(implementation), target: await lookup(implementation, depth + 1) }
  }

  async function detect(address: string): Promise<DetectedProxy | null> {
    if (!chain) return null
    const key = address.toLowerCase()
    const kept = proxies.get(key)
    if (kept) return kept.found
    const entry = await codeOf(address)
    if (!entry) return null
    const found = await outage.read(() => detectProxy(chain, key, `0x${entry.code}`))
    proxies.set(key, { found })
    return found
  }

  return { lookup: (address) => lookup(address, 0), proxyOf: (address) => proxyAt(address, 0) }
}

async function unlessUnreachable<T>(read: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof NodeUnreachableError) return otherwise
    throw error
  }
}

/**
 * `load` of many keys, asked one key at a time: the keys asked for in one turn of the event loop
 * are loaded together, and each caller is given its own value (null when `load` found none).
 */
function gathered<V>(load: (keys: string[]) => Promise<Map<string, V>>): (key: string) => Promise<V | null> {
  let waiting: Map<string, Array<PromiseWithResolvers<V | null>>> | null = null
  const flush = (batch: Map<string, Array<PromiseWithResolvers<V | null>>>) => {
    waiting = null
    load([...batch.keys()]).then(
      (found) => {
        for (const [key, callers] of batch) for (const caller of callers) caller.resolve(found.get(key) ?? null)
      },
      (error) => {
        for (const callers of batch.values()) for (const caller of callers) caller.reject(error)
      },
    )
  }
  return (key) => {
    if (!waiting) {
      const batch = (waiting = new Map())
      setImmediate(() => flush(batch))
    }
    const caller = Promise.withResolvers<V | null>()
    waiting.set(key, [...(waiting.get(key) ?? []), caller])
    return caller.promise
  }
}
