import { randomBytes } from 'node:crypto'
import type { Logger } from '../../log.ts'
import { FaucetUnavailableError, QuotaExceededError } from '../errors.ts'
import { secondsUntilNextUtcDay, utcDay } from './day.ts'
import type { JournalEntry } from './entries.ts'
import { Journal, type JournalOptions, type Recovery } from './journal.ts'
import type { Tally } from './tally.ts'

export type QuotaLimits = {
  perClient: number
  perAddress: number
  global: number
  /** Drips over the faucet's whole life. */
  allTime: number
}

/** One request's claim on the quotas, from reservation to commit or rollback. */
export type Reservation = {
  readonly id: string
  readonly day: string
  readonly client: string
  readonly address: string
  state: 'reserved' | 'committed' | 'rolledBack'
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

  private constructor(
    private readonly journal: Journal,
    private readonly tally: Tally,
    private readonly limits: QuotaLimits,
    private readonly clock: () => number,
    readonly recovery: Recovery,
    private readonly log?: Logger,
  ) {}

  static open(options: JournalOptions & { limits: QuotaLimits }): QuotaBook {
    const { journal, tally, recovery } = Journal.open(options)
    return new QuotaBook(journal, tally, options.limits, options.clock, recovery, options.log)
  }

  /** Takes one slot of every quota, or throws the 429 naming the first quota that is used up. */
  reserve(client: string, address: string): Reservation {
    const now = this.clock()
    const day = utcDay(now)
    this.tally.rollDay(day)
    const key = address.toLowerCase()
    const resetsIn = secondsUntilNextUtcDay(now)
    const { perClient, perAddress, global, allTime } = this.limits
    if ((this.tally.clients.get(client) ?? 0) >= perClient) {
      throw new QuotaExceededError('client', `daily quota reached: at most ${perClient} drips a day per client`, { resetsIn })
    }
    if ((this.tally.addresses.get(key) ?? 0) >= perAddress) {
      throw new QuotaExceededError('address', `daily quota reached: at most ${perAddress} drips a day per address`, { resetsIn })
    }
    if (this.tally.global >= global) {
      throw new QuotaExceededError('global', `daily quota reached: the faucet pays at most ${global} drips a day`, { resetsIn })
    }
    if (this.tally.allTime + this.tally.open.size >= allTime) {
      throw new QuotaExceededError('allTime', `all-time budget reached: the faucet pays at most ${allTime} drips in all`)
    }
    const reservation: Reservation = { id: `${this.bootId}-${++this.sequence}`, day, client, address: key, state: 'reserved' }
    const entry: JournalEntry = { type: 'reserve', id: reservation.id, at: new Date(now).toISOString(), day, client, address: key }
    // On disk before anything is signed: a crash from here on counts the slot as taken. A slot
    // that cannot be written down is not given out.
    try {
      this.journal.append(entry, true)
    } catch (error) {
      this.log?.error({ err: error, path: this.journal.path }, 'cannot write the quota journal')
      throw new FaucetUnavailableError('faucet unavailable: the quota journal cannot be written')
    }
    this.tally.apply(entry)
    this.rotateIfDue()
    return reservation
  }

  /** A transaction hash came back: the drip counts towards the all-time total from now on. */
  commit(reservation: Reservation, hash: string): void {
    if (reservation.state !== 'reserved') return
    reservation.state = 'committed'
    this.write({ type: 'commit', id: reservation.id, hash }, true)
  }

  /**
   * The attempt failed: its slots are free again. Not fsynced: losing this line in a crash only
   * counts the slot as taken, which errs on the side of paying less.
   */
  rollback(reservation: Reservation): void {
    if (reservation.state === 'rolledBack') return
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
