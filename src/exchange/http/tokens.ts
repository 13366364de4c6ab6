import { erc20Abi, hexToString, type Abi, type Address, type PublicClient } from 'viem'
import { fromChain } from '../../chain/client.ts'
import { NodeUnreachableError } from '../../errors.ts'

export type TokenMeta = { address: Address; symbol: string | null; decimals: number | null }

/** MKR-style tokens answer symbol() with a bytes32. */
const bytes32SymbolAbi = [{ type: 'function', name: 'symbol', stateMutability: 'view', inputs: [], outputs: [{ type: 'bytes32' }] }] as const

/**
 * Token symbols and decimals, read from the chain the first time a token is asked for and kept
 * for the life of the process (a changed symbol stays stale until restart). A token
 * that does not answer (no code, a revert) keeps null for good; when the node cannot be reached
 * the answer is null for now and the token is asked again after `retryMs`.
 */
export class TokenBook {
  private readonly known = new Map<string, Promise<TokenMeta>>()
  /** The answers already in, so a list of rows needs no promise per token once they are. */
  private readonly settled = new Map<string, TokenMeta>()

  constructor(
    private readonly client: PublicClient,
    private readonly retryMs = 5000,
  ) {}

  get(address: Address): Promise<TokenMeta> {
    const id = address.toLowerCase()
    let entry = this.known.get(id)
    if (!entry) {
      entry = this.read(address).then(
        (meta) => (this.settled.set(id, meta), meta),
        (error) => {
          if (!(error instanceof NodeUnreachableError)) throw error
          setTimeout(() => this.known.delete(id), this.retryMs).unref?.()
          return { address, symbol: null, decimals: null }
        },
      )
      this.known.set(id, entry)
    }
    return entry
  }

  /** Several at once, as a lookup by lower-case address. */
  async many(addresses: Iterable<Address>): Promise<Map<string, TokenMeta>> {
    const found = new Map<string, TokenMeta>()
    const missing: Address[] = []
    for (const address of addresses) {
      const id = address.toLowerCase()
      const meta = this.settled.get(id)
      if (meta) found.set(id, meta)
      else missing.push(address)
    }
    for (const meta of await Promise.all(missing.map((address) => this.get(address)))) found.set(meta.address.toLowerCase(), meta)
    return found
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

  /** One view call; null when the contract gives no usable answer, NodeUnreachableError when the node is not there. */
  private async call(address: Address, abi: Abi, functionName: string): Promise<unknown> {
    try {
      return await fromChain(() => this.client.readContract({ address, abi, functionName }))
    } catch (error) {
      if (error instanceof NodeUnreachableError) throw error
      return null
    }
  }
}
