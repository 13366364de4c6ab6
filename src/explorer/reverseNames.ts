import type { Address } from 'viem'
import type { LiveNode } from './node.ts'
import { reverseCall, reverseResult } from './names.ts'
import { RecentAnswers } from './recentAnswers.ts'

/** The most addresses one request names: a page's worth of rows, with both ends of each. */
export const NAMES_MAX = 100

/**
 * The names addresses go by (their reverse records; docs/explorer.md, `/names`), for the pages to
 * print beside or in place of an address. Read live from the name registry like every name,
 * all the addresses of one request in one batch, each answer kept `ttlMs` so that the rows of
 * a list viewed by many cost one read. With no name service, or the node away, every address
 * names itself by nothing (and nothing is kept, so the next request asks again).
 */
export class ReverseNames {
  private readonly cache = new RecentAnswers<string | null>()

  constructor(
    private readonly node: LiveNode,
    private readonly registry: Address | null,
    private readonly ttlMs: number,
  ) {}

  async names(addresses: Address[]): Promise<Map<Address, string | null>> {
    const answers = new Map<Address, string | null>()
    const missing: Address[] = []
    for (const address of new Set(addresses)) {
      const hit = this.cache.fresh(address, this.ttlMs)
      answers.set(address, hit ? hit.value : null)
      if (!hit) missing.push(address)
    }
    if (this.registry === null || missing.length === 0) return answers
    const registry = this.registry
    const results = await this.node.batch(missing.map((address) => reverseCall(registry, address)))
    if (results === null) return answers
    missing.forEach((address, index) => {
      const name = reverseResult(results, index)?.name ?? null
      this.cache.keep(address, name)
      answers.set(address, name)
    })
    return answers
  }
}
