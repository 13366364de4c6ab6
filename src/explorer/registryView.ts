import type { Label, RegistryCopy } from '../registry/copy.ts'

/** A token as the registry lists it (docs/registry.md). */
export type ListedToken = { address: string; name: string; symbol: string; decimals: number; logoURI: string; tags: string[] }

/**
 * What the explorer takes from the registry's validated copy: the tag label of a contract, and
 * the token list entry (the verified mark, name, symbol, decimals, logo). The token index is
 * rebuilt only when the served token list changes.
 */
export class RegistryView {
  private tokensFrom: unknown = null
  private tokens = new Map<string, ListedToken>()

  constructor(private readonly copy: RegistryCopy) {}

  label(address: string): Label | null {
    return this.copy.label(address)
  }

  labelName(address: string | null): string | null {
    return address === null ? null : (this.copy.label(address)?.name ?? null)
  }

  /** The token list entry of an address: listed means verified. */
  token(address: string): ListedToken | null {
    return this.index().get(address.toLowerCase()) ?? null
  }

  /** Every listed token, in the list's order. */
  listed(): ListedToken[] {
    return [...this.index().values()]
  }

  /** The chain's native token: the list's entry tagged `native`. */
  native(): ListedToken | null {
    return this.listed().find((token) => token.tags.includes('native')) ?? null
  }

  /**
   * The verified mark means the token list lists the address. A tag gives a contract a
   * label, never the mark.
   */
  verified(address: string): boolean {
    return this.token(address) !== null
  }

  /** Every tag of the registry: the contract's address and its label. */
  tags(): Array<{ address: string; label: Label }> {
    const tags = (this.copy.file('tags.json')?.json as { tags?: Record<string, Label> } | undefined)?.tags ?? {}
    return Object.entries(tags).map(([address, label]) => ({ address, label }))
  }

  /** Changes whenever the served token list or tags change (both are replaced whole, never edited). */
  revision(): [unknown, unknown] {
    return [this.copy.file('tokenlist.json'), this.copy.file('tags.json')]
  }

  private index(): Map<string, ListedToken> {
    const served = this.copy.file('tokenlist.json')
    if (served !== this.tokensFrom) {
      this.tokensFrom = served
      const list = (served?.json as { tokens?: Array<ListedToken & { tags?: string[] }> } | undefined)?.tokens ?? []
      this.tokens = new Map(list.map((token) => [token.address.toLowerCase(), { ...token, tags: token.tags ?? [] }]))
    }
    return this.tokens
  }
}
