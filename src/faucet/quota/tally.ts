import type { Checkpoint, JournalEntry } from './entries.ts'

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
  /** Reserved, not yet committed or rolled back. */
  open = new Set<string>()

  constructor(day: string) {
    this.day = day
  }

  static fromCheckpoint(checkpoint: Checkpoint): Tally {
    const tally = new Tally(checkpoint.day)
    tally.global = checkpoint.global
    tally.clients = new Map(Object.entries(checkpoint.clients))
    tally.addresses = new Map(Object.entries(checkpoint.addresses))
    tally.allTime = checkpoint.allTime
    tally.open = new Set(checkpoint.open)
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
        this.open.add(entry.id)
        if (entry.day === this.day) this.count(entry.client, entry.address, 1)
        return
      case 'commit':
        this.open.delete(entry.id)
        this.allTime++
        return
      case 'rollback':
        if (entry.committed) this.allTime = Math.max(0, this.allTime - 1)
        else this.open.delete(entry.id)
        if (entry.day === this.day) this.count(entry.client, entry.address, -1)
        return
    }
  }

  /**
   * After a restart no one is left to settle a reservation that was open when the process
   * died: its transaction may have been sent, so it counts as spent (never as free).
   */
  closeOrphans(): number {
    const orphans = this.open.size
    this.allTime += orphans
    this.open.clear()
    return orphans
  }

  checkpoint(at: number): Checkpoint {
    return {
      type: 'checkpoint',
      version: 1,
      at: new Date(at).toISOString(),
      day: this.day,
      global: this.global,
      clients: Object.fromEntries(this.clients),
      addresses: Object.fromEntries(this.addresses),
      allTime: this.allTime,
      open: [...this.open],
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
