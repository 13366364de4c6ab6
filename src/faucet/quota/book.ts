import { randomBytes } from 'node:crypto'
import type { Logger } from '../../log.ts'
import { FaucetUnavailableError, QuotaExceededError } from '../errors.ts'
import { secondsUntilNextUtcDay, utcDay } from './day.ts'
import type { JournalEntry, OpenReservation } from './entries.ts'
import { Journal, type JournalOptions, type JournalRecovery } from './journal.ts'
import type { ChainCounts, Tally } from './tally.ts'

export type QuotaLimits = {
  perClient: number
  perAddress: number
  global: number
  /** Drips over the faucet's whole life. */
  allTime: number
}

/**
 * One request's claim on the quotas: reserved, then committed once its transaction is signed,
 * then confirmed when the chain shows it paid, or rolled back when it did not.
 */
export type Reservation = {
  readonly id: string
  readonly day: string
  readonly client: string
  readonly address: string
  state: 'reserved' | 'committed' | 'confirmed' | 'rolledBack'
}

/** A reservation whose transaction was signed but whose fate the chain has not told yet. */
export type Unsettled = { reservation: Reservation; hash: string }

/** What the start found on disk, and what it did with reservations the last process left open. */
export type Recovery = JournalRecovery & {
  /** Open reservations that never reached a signature: nothing was sent, their slots are free again. */
  released: number
  /** Open reservations of a version 1 journal, which may have been paid: counted as spent. */
  spent: number
  /** Open reservations with a signed transaction, to be settled against the chain. */
  unsettled: number
}

/** Counters as they stand, for the status of a test or an operator. */
export type QuotaUsage = {
  day: string
  global: number
  clients: Record<string, number>
  addresses: Record<string, number>
  allTime: number
  open: number
}

/**
 * The faucet's quotas: per client, per funded address, global (each per UTC day) and an
 * all-time budget. `reserve` is synchronous: it checks and takes a slot, on disk and in memory,
 * before returning, so on one event loop two requests can never both take the last slot.
 */
export class QuotaBook {
  private readonly bootId = randomBytes(4).toString('hex')
  private sequence = 0

  readonly recovery: Recovery

  private constructor(
    private readonly journal: Journal,
    private readonly tally: Tally,
    readonly limits: QuotaLimits,
    private readonly clock: () => number,
    found: JournalRecovery,
    private readonly log?: Logger,
  ) {
    this.recovery = { ...found, ...this.settleUnsigned() }
  }

  static open(options: JournalOptions & { limits: QuotaLimits }): QuotaBook {
    const { journal, tally, recovery } = Journal.open(options)
    return new QuotaBook(journal, tally, options.limits, options.clock, recovery, options.log)
  }

  /**
   * What the last process left open: a reservation without a signed transaction sent nothing
   * (the commit is on disk before a transaction is), so its slots are given back; one with a
   * transaction waits for the chain (`unsettled`).
   */
  private settleUnsigned(): Pick<Recovery, 'released' | 'spent' | 'unsettled'> {
    const spent = this.tally.spendLegacy()
    let released = 0
    for (const open of [...this.tally.open.values()]) {
      if (open.hash !== null) continue
      this.rollback(reservationOf(open, 'reserved'))
      released++
    }
    return { released, spent, unsettled: this.tally.open.size }
  }

  /** Takes one slot of every quota, or throws the 429 naming the first quota that is used up. */
  reserve(client: string, address: string): Reservation {
    const now = this.clock()
    const day = utcDay(now)
    this.tally.rollDay(day)
    const key = address.toLowerCase()
    const refused = this.firstRefusal(now, client, key)
    if (refused) throw refused
    const reservation: Reservation = { id: `${this.bootId}-${++this.sequence}`, day, client, address: key, state: 'reserved' }
    const entry: JournalEntry = { type: 'reserve', id: reservation.id, at: new Date(now).toISOString(), day, client, address: key }
    // On disk before anything is signed, so a start after a crash knows of the slot (and frees it
    // if no transaction was signed for it). A slot that cannot be written down is not given out.
    this.writeOrRefuse(entry)
    return reservation
  }

  /**
   * The quota that would refuse a drip to `address` now, whoever asks for it (the per-client
   * quota depends on the asker, so it is left out), as the 429 `reserve` would throw; null when
   * none would. Takes no slot.
   */
  refusalFor(address: string): QuotaExceededError | null {
    const now = this.clock()
    this.tally.rollDay(utcDay(now))
    return this.firstRefusal(now, null, address.toLowerCase())
  }

  /** The first quota used up for `client` (null: not counted) and the lower-case `key`, in the order `reserve` checks them. */
  private firstRefusal(now: number, client: string | null, key: string): QuotaExceededError | null {
    const resetsIn = secondsUntilNextUtcDay(now)
    const { perClient, perAddress, global, allTime } = this.limits
    if (client !== null && (this.tally.clients.get(client) ?? 0) >= perClient) {
      return new QuotaExceededError('client', `daily quota reached: at most ${perClient} drips a day per client`, { resetsIn })
    }
    if ((this.tally.addresses.get(key) ?? 0) >= perAddress) {
      return new QuotaExceededError('address', `daily quota reached: at most ${perAddress} drips a day per address`, { resetsIn })
    }
    if (this.tally.global >= global) {
      return new QuotaExceededError('global', `daily quota reached: the faucet pays at most ${global} drips a day`, { resetsIn })
    }
    if (this.tally.allTime + this.tally.unsigned() >= allTime) {
      return new QuotaExceededError('allTime', `all-time budget reached: the faucet pays at most ${allTime} drips in all`)
    }
    return null
  }

  /**
   * The drip's transaction is signed, not yet sent: its hash goes to disk first, so that whatever
   * happens next, a start finds the transaction to settle. The drip counts towards the all-time
   * total from now on.
   */
  commit(reservation: Reservation, hash: string): void {
    if (reservation.state !== 'reserved') return
    // This line decides whether the transaction may go out at all: one the journal cannot name
    // would be released by the next start while it lands.
    this.writeOrRefuse({ type: 'commit', id: reservation.id, hash })
    reservation.state = 'committed'
  }

  /**
   * The chain shows the drip paid. Not fsynced: a start that misses this line asks the chain
   * again about the transaction and finds the same.
   */
  confirm(reservation: Reservation): void {
    if (reservation.state !== 'committed') return
    reservation.state = 'confirmed'
    this.write({ type: 'confirm', id: reservation.id }, false)
  }

  /**
   * The attempt failed: its slots are free again. Not fsynced: losing this line in a crash only
   * counts the slot as taken, which errs on the side of paying less.
   */
  rollback(reservation: Reservation): void {
    if (reservation.state === 'rolledBack' || reservation.state === 'confirmed') return
    const committed = reservation.state === 'committed'
    reservation.state = 'rolledBack'
    const { id, day, client, address } = reservation
    this.write({ type: 'rollback', id, day, client, address, committed }, false)
  }

  usage(): QuotaUsage {
    this.tally.rollDay(utcDay(this.clock()))
    const { day, global, allTime } = this.tally
    return {
      day,
      global,
      clients: Object.fromEntries(this.tally.clients),
      addresses: Object.fromEntries(this.tally.addresses),
      allTime,
      open: this.tally.open.size,
    }
  }

  /** Reservations with a signed transaction that the chain has not yet settled. */
  unsettled(): Unsettled[] {
    return [...this.tally.open.values()].flatMap((open) => (open.hash === null ? [] : [{ reservation: reservationOf(open, 'committed'), hash: open.hash }]))
  }

  /**
   * Raises the counters to what the chain shows was paid (never lowers them) and, when that
   * changed anything, starts a new file so that its checkpoint keeps them. Returns whether it did.
   */
  raiseTo(chain: ChainCounts): boolean {
    this.tally.rollDay(utcDay(this.clock()))
    if (!this.tally.raiseTo(chain)) return false
    this.journal.rotate(this.tally.checkpoint(this.clock()))
    return true
  }

  /** The journal file being appended to. */
  get journalPath(): string {
    return this.journal.path
  }

  close(): void {
    this.journal.close()
  }

  /**
   * What happened to a drip is true whether or not the disk takes the line, so memory follows it
   * first; a failed write is logged (the next checkpoint carries the counters again).
   */
  private write(entry: JournalEntry, durable: boolean): void {
    this.tally.apply(entry)
    try {
      this.journal.append(entry, durable)
    } catch (error) {
      this.log?.error({ err: error, path: this.journal.path, entry }, 'cannot write the quota journal')
    }
    this.rotateIfDue()
  }

  /** A line that must be on disk before the faucet goes on: when it cannot be, the drip is refused (503). */
  private writeOrRefuse(entry: JournalEntry): void {
    try {
      this.journal.append(entry, true)
    } catch (error) {
      this.log?.error({ err: error, path: this.journal.path }, 'cannot write the quota journal')
      throw new FaucetUnavailableError('faucet unavailable: the quota journal cannot be written')
    }
    this.tally.apply(entry)
    this.rotateIfDue()
  }

  private rotateIfDue(): void {
    if (!this.journal.shouldRotate()) return
    try {
      this.journal.rotate(this.tally.checkpoint(this.clock()))
    } catch (error) {
      // The current file stays in use; the next write tries again.
      this.log?.error({ err: error, dir: this.journal.path }, 'cannot start a new quota journal file')
    }
  }
}

function reservationOf(open: OpenReservation, state: Reservation['state']): Reservation {
  return { id: open.id, day: open.day, client: open.client, address: open.address, state }
}
