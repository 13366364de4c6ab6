/** Why an upgrade was refused with 429. */
export type Refusal = 'tooManySockets' | 'tooManyFromAddress'

/** A socket's place under the caps, held from the upgrade until the socket closes. */
export type Ticket = { readonly address: string; released: boolean }

/**
 * The socket caps (docs/arcade.md): at most `maxTotal` sockets, and `maxPerAddress` from one
 * client address. A place is taken when the upgrade is accepted, before the socket opens, so that
 * upgrades racing each other cannot all pass the same check.
 */
export class Admission {
  private open = 0
  private readonly byAddress = new Map<string, number>()

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerAddress: number,
  ) {}

  /** Takes a place for `address`, or says which cap is reached. */
  admit(address: string): Ticket | Refusal {
    if (this.open >= this.maxTotal) return 'tooManySockets'
    if ((this.byAddress.get(address) ?? 0) >= this.maxPerAddress) return 'tooManyFromAddress'
    this.take(address)
    return { address, released: false }
  }

  /** Gives the place back; releasing twice is harmless. */
  release(ticket: Ticket): void {
    if (ticket.released) return
    ticket.released = true
    this.open--
    const count = (this.byAddress.get(ticket.address) ?? 1) - 1
    if (count === 0) this.byAddress.delete(ticket.address)
    else this.byAddress.set(ticket.address, count)
  }

  /** Takes a released ticket's place again: a socket opened after its place had been given up. */
  reclaim(ticket: Ticket): void {
    if (!ticket.released) return
    ticket.released = false
    this.take(ticket.address)
  }

  get total(): number {
    return this.open
  }

  private take(address: string) {
    this.open++
    this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1)
  }
}
