import { hexToString, parseAbi, type Address, type Hex } from 'viem'
import type { RpcCall, RpcResult } from '../chain/rpc.ts'
import { valueOf, viewCall, viewResult, type LiveNode } from './node.ts'
import { RecentAnswers } from './recentAnswers.ts'

const probeAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
])

/** ERC-165 interface ids of the NFT standards. */
const ERC721_INTERFACE = '0x80ac58cd'
const ERC1155_INTERFACE = '0xd9b67a26'

/** What a contract says about itself. A field it does not answer is null. */
export type Probe = {
  name: string | null
  symbol: string | null
  decimals: number | null
  totalSupply: string | null
  /** 'erc721' or 'erc1155' when it claims the interface (ERC-165), else null. */
  nft: 'erc721' | 'erc1155' | null
}

const CALLS_PER_PROBE = 6

/** A token's name, symbol and decimals last: an unlisted token shown in a list or a transaction is asked again at most once a minute. */
export const TOKEN_META_AGE_MS = 60_000

function probeCalls(address: Address): RpcCall[] {
  return [
    viewCall(address, probeAbi, 'name'),
    viewCall(address, probeAbi, 'symbol'),
    viewCall(address, probeAbi, 'decimals'),
    viewCall(address, probeAbi, 'totalSupply'),
    viewCall(address, probeAbi, 'supportsInterface', [ERC721_INTERFACE]),
    viewCall(address, probeAbi, 'supportsInterface', [ERC1155_INTERFACE]),
  ]
}

/** A name or symbol: a string, or the bytes32 some early tokens return instead. */
function text(results: RpcResult[], index: number, functionName: 'name' | 'symbol'): string | null {
  const decoded = viewResult<string>(results, index, probeAbi, functionName)
  if (decoded !== null) return decoded
  const raw = valueOf<Hex>(results, index)
  if (raw && raw.length === 66) return hexToString(raw, { size: 32 }).replace(/\0+$/, '') || null
  return null
}

function readProbe(results: RpcResult[], at: number): Probe {
  const decimals = viewResult<number>(results, at + 2, probeAbi, 'decimals')
  const supply = viewResult<bigint>(results, at + 3, probeAbi, 'totalSupply')
  const is721 = viewResult<boolean>(results, at + 4, probeAbi, 'supportsInterface') === true
  const is1155 = viewResult<boolean>(results, at + 5, probeAbi, 'supportsInterface') === true
  return {
    name: text(results, at, 'name'),
    symbol: text(results, at + 1, 'symbol'),
    decimals: decimals === null ? null : Number(decimals),
    totalSupply: supply === null ? null : supply.toString(),
    nft: is721 ? 'erc721' : is1155 ? 'erc1155' : null,
  }
}

/**
 * Live contract probes (name, symbol, decimals, total supply, NFT interfaces), all the addresses
 * of one request in one batch. Answers are kept for `ttlMs`, so a list asked for again within
 * the cache window of its route costs no node call. With the node unreachable an address maps
 * to null.
 */
export class ContractProbes {
  private readonly cache = new RecentAnswers<Probe>()

  constructor(
    private readonly node: LiveNode,
    private readonly ttlMs = 3000,
  ) {}

  async probe(addresses: Address[], maxAgeMs = this.ttlMs): Promise<Map<string, Probe | null>> {
    const plan = this.plan(addresses, maxAgeMs)
    return plan.read(plan.calls.length > 0 ? await this.node.batch(plan.calls) : [], 0)
  }

  /**
   * The calls a probe of these addresses needs (none for those probed within `maxAgeMs`), and
   * how to read their answers, so that a route can put them in the same batch as its own reads.
   */
  plan(addresses: Address[], maxAgeMs = this.ttlMs): { calls: RpcCall[]; read: (results: RpcResult[] | null, offset: number) => Map<string, Probe | null> } {
    const answers = new Map<string, Probe | null>()
    const missing: Address[] = []
    for (const address of new Set(addresses.map((address) => address.toLowerCase() as Address))) {
      const hit = this.cache.fresh(address, maxAgeMs)
      if (hit) answers.set(address, hit.value)
      else missing.push(address)
    }
    const read = (results: RpcResult[] | null, offset: number) => {
      missing.forEach((address, index) => {
        const probe = results === null ? null : readProbe(results, offset + index * CALLS_PER_PROBE)
        if (probe) this.cache.keep(address, probe)
        answers.set(address, probe)
      })
      return answers
    }
    return { calls: missing.flatMap(probeCalls), read }
  }
}
