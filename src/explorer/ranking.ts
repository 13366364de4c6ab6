import { checksum } from '../eth/address.ts'
import type { RegistryView } from './registryView.ts'
import type { ChainTally } from './tally.ts'

/**
 * The accounts ordered by transaction count (sent plus received, a self-send once), busiest
 * first, ties by address. Sorting every account is the costly part, so the order is kept until
 * the tally changes and then rebuilt at most once a second.
 */
export class AccountRanking {
  private order: string[] = []
  private builtAt = 0
  private builtFrom = -1

  constructor(private readonly tally: ChainTally) {}

  ranked(): string[] {
    if (this.builtFrom !== this.tally.version && Date.now() - this.builtAt >= 1000) {
      const count = (key: string) => {
        const counts = this.tally.accounts.get(key)!
        return counts.sent + counts.received - counts.self
      }
      const keyed = [...this.tally.accounts.keys()].map((key) => ({ key, count: count(key) }))
      keyed.sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
      this.order = keyed.map((entry) => entry.key)
      this.builtFrom = this.tally.version
      this.builtAt = Date.now()
    }
    return this.order
  }
}

/** One account of the accounts list (lower-case hex key without 0x). */
export function accountRow(key: string, tally: ChainTally, registry: RegistryView) {
  const counts = tally.accounts.get(key) ?? { sent: 0, received: 0, self: 0 }
  const address = checksum(`0x${key}`)
  return {
    address,
    label: registry.labelName(address),
    txCount: counts.sent + counts.received - counts.self,
    sent: counts.sent,
    received: counts.received,
    contract: tally.creations.has(key),
  }
}
