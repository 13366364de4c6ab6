import { erc20Abi, hexToString, type Address, type PublicClient } from 'viem'
import { isNodeUnreachable } from '../../chain/client.ts'

export type TokenMeta = { address: Address; symbol: string | null; decimals: number | null }

/** MKR-style tokens answer symbol() with a bytes32. */
const bytes32SymbolAbi = [{ type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ type: 'bytes32' }] }] as const

/** Thrown inside a read when the node could not be reached: the answer is not final. */
class NodeAway extends Error {}

/**
 * Token symbols and decimals, read from the chain the first time a token is asked for and kept
 * for the life of the process (spec 02: a changed symbol stays stale until restart). A token
 * that does not answer (no code, a revert) keeps null for good; when the node cannot be reached
 * the answer is null for now and the token is asked again after `retryMs`.
 */
export class TokenBook {
  private readonly known = new Map<string, Promise<TokenMeta>>()

  constructor(
    private readonly client: PublicClient,
    private readonly retryMs = 5000,
  ) {}

  get(address: Address): Promise<TokenMeta> {
    const id = address.toLowerCase()
    let entry = this.known.get(id)
    if (!entry) {
      entry = this.read(address).catch((error) => {
        if (!(error instanceof NodeAway)) throw error
        setTimeout(() => this.known.delete(id), this.retryMs).unref?.()
        return { address, symbol: null, decimals: null }
      })
      this.known.set(id, entry)
    }
    return entry
  }

  /** Several at once, as a lookup by lower-case address. */
  async many(addresses: Iterable<Address>): Promise<Map<string, TokenMeta>> {
    const unique = [...new Set([...addresses])]
    const metas = await Promise.all(unique.map((address) => this.get(address)))
    return new Map(metas.map((meta) => [meta.address.toLowerCase(), meta]))
  }

  private async read(address: Address): Promise<TokenMeta> {
    const [symbol, decimals] = await Promise.all([this.symbol(address), this.call(address, erc20Abi, 'decimals')])
    return { address, symbol, decimals: decimals === null ? null : Number(decimals) }
  }

  private async symbol(address: Address): Promise<string | null> {
    const text = await this.call(address, erc20Abi, 'symbol')
    if (text !== null) return text as string
    const word = await this.call(address, bytes32SymbolAbi, 'symbol')
    return word === null ? null : hexToString(word as `0x${string}`, { size: 32 }).replace(/\0+$/, '') || null
  }

  /** One view call; null when the contract gives no usable answer, NodeAway when the node is not there. */
  private async call(address: Address, abi: readonly unknown[], functionName: string): Promise<unknown> {
    try {
      return await this.client.readContract({ address, abi, functionName } as never)
    } catch (error) {
      if (isNodeUnreachable(error)) throw new NodeAway()
      return null
    }
  }
}
