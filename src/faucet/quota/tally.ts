import type { Checkpoint, JournalEntry, OpenReservation, ReadCheckpoint } from './entries.ts'

/** What the chain shows the faucet paid (the operator's successful dripTo calls). */
export type ChainCounts = { day: string; global: number; addresses: Map<string, number>; allTime: number }

/**
 * The quota counters in memory. The same `apply` serves the running service and the replay of
 * the journal at start, so what is counted live and what is rebuilt cannot drift apart.
 */
export class Tally {
  day: string
  global = 0
  clients = new Map<string, number>()
  addresses = new Map<string, number>()
  allTime = 0
  /** Reservations not yet settled: before their transaction, or awaiting the chain's word on it. */
  open = new Map<string, OpenReservation>()
  /** Reservations a version 1 journal left open, known by id only; null after version 2 (see `spendLegacy`). */
  legacyOpen: number | null = null

  constructor(day: string) {
    this.day = day
  }

  static fromCheckpoint(checkpoint: ReadCheckpoint): Tally {
    const tally = new Tally(checkpoint.day)
    tally.global = checkpoint.global
    tally.clients = new Map(Object.entries(checkpoint.clients))
    tally.addresses = new Map(Object.entries(checkpoint.addresses))
    tally.allTime = checkpoint.allTime
    tally.open = new Map(checkpoint.open.map((open) => [open.id, { ...open }]))
    tally.legacyOpen = checkpoint.legacyOpen
    return tally
  }

  /** At the turn of the UTC day the daily counters start again; the all-time total does not. */
  rollDay(today: string): void {
    if (today === this.day) return
    this.day = today
    this.global = 0
    this.clients.clear()
    this.addresses.clear()
  }

  apply(entry: JournalEntry): void {
    switch (entry.type) {
      case 'reserve':
        this.open.set(entry.id, { id: entry.id, day: entry.day, client: entry.client, address: entry.address, hash: null })
        if (entry.day === this.day) this.count(entry.client, entry.address, 1)
        return
      case 'commit': {
        this.allTime++
        const open = this.open.get(entry.id)
        if (open) open.hash = entry.hash
        return
      }
      case 'confirm':
        this.open.delete(entry.id)
        return
      case 'rollback':
        if (entry.committed) this.allTime = Math.max(0, this.allTime - 1)
        this.open.delete(entry.id)
        if (entry.day === this.day) this.count(entry.client, entry.address, -1)
        return
    }
  }

  /** Reservations not yet signed: they hold a part of the all-time budget that no commit counts yet. */
  unsigned(): number {
    let count = 0
    for (const open of this.open.values()) if (open.hash === null) count++
    return count
  }

  /**
   * A version 1 journal committed a drip only after its transaction was sent, so a reservation
   * it left open may have been paid: it counts as spent, as that version counted it. Reservations
   * of version 1 that had been committed are settled against the chain like any other.
   */
  spendLegacy(): number {
    if (this.legacyOpen === null) return 0
    let spent = this.legacyOpen
    for (const [id, open] of this.open) {
      if (open.hash !== null) continue
      this.open.delete(id)
      spent++
    }
    this.allTime += spent
    this.legacyOpen = null
    return spent
  }

  /**
   * Raises the counters to what the chain shows was paid, never lowers them: the journal may
   * count reservations the chain does not have yet, the chain may show drips a lost file counted.
   * The clients are not on the chain. Returns whether anything rose.
   */
  raiseTo(chain: ChainCounts): boolean {
    let raised = false
    if (chain.allTime > this.allTime) {
      this.allTime = chain.allTime
      raised = true
    }
    if (chain.day !== this.day) return raised
    if (chain.global > this.global) {
      this.global = chain.global
      raised = true
    }
    for (const [address, paid] of chain.addresses) {
      if (paid <= (this.addresses.get(address) ?? 0)) continue
      this.addresses.set(address, paid)
      raised = true
    }
    return raised
  }

  checkpoint(at: number): Checkpoint {
    return {
      type: 'checkpoint',
      version: 2,
      at: new Date(at).toISOString(),
      day: this.day,
      global: this.global,
      clients: Object.fromEntries(this.clients),
      addresses: Object.fromEntries(this.addresses),
      allTime: this.allTime,
      open: [...this.open.values()],
    }
  }

  private count(client: string, address: string, delta: 1 | -1): void {
    this.global = Math.max(0, this.global + delta)
    bump(this.clients, client, delta)
    bump(this.addresses, address, delta)
  }
}

function bump(counts: Map<string, number>, key: string, delta: number): void {
  const next = (counts.get(key) ?? 0) + delta
  if (next > 0) counts.set(key, next)
  else counts.delete(key)
}
