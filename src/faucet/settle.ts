import type { Hash, PublicClient } from 'viem'
import type { Logger } from '../log.ts'
import type { Operator } from './operator.ts'
import type { QuotaBook, Reservation } from './quota/book.ts'
import { isTransactionKnown } from './receipt.ts'

export type SettleOptions = {
  /** Between two looks at a transaction. */
  intervalMs?: number
  /** How long a transaction is followed; one still pending after that stays counted as spent. */
  maxMs?: number
  /** Looks in a row at which the node must not know a transaction before it counts as dropped. */
  missesToDrop?: number
}

/**
 * Follows drips answered "no receipt yet", and at a start the drips the last process left
 * unsettled: the transaction may still land, so the slot stays taken until the chain says
 * otherwise. A revert or a transaction the node dropped gives the
 * slot back (and, when dropped, its nonce); a success or a transaction still pending when the
 * follow-up ends keeps it.
 */
export class Settler {
  /** Each transaction followed, with the timer of its next look (null while looking). */
  private readonly followed = new Map<Hash, Timer | null>()
  private readonly intervalMs: number
  private readonly maxMs: number
  private readonly missesToDrop: number

  constructor(
    private readonly client: PublicClient,
    private readonly book: QuotaBook,
    private readonly operator: Operator,
    private readonly log: Logger,
    options: SettleOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000
    this.maxMs = options.maxMs ?? 600_000
    this.missesToDrop = options.missesToDrop ?? 2
  }

  /** Number of transactions being followed. */
  get pending(): number {
    return this.followed.size
  }

  follow(hash: Hash, reservation: Reservation): void {
    const started = performance.now()
    let misses = 0
    const settled = (level: 'info' | 'warn', message: string) => {
      this.followed.delete(hash)
      this.log[level]({ hash }, message)
    }
    const look = async () => {
      this.followed.set(hash, null)
      const outcome = await this.look(hash)
      if (!this.followed.has(hash)) return // stopped meanwhile
      if (outcome === 'success') {
        this.book.confirm(reservation)
        return settled('info', 'late drip receipt: success')
      }
      if (outcome === 'reverted') {
        this.book.rollback(reservation)
        return settled('warn', 'late drip receipt: reverted; quota slot given back')
      }
      misses = outcome === 'unknown' ? misses + 1 : 0
      if (misses >= this.missesToDrop) {
        this.book.rollback(reservation)
        this.operator.resetNonce()
        return settled('warn', 'drip transaction dropped by the node; quota slot given back')
      }
      if (performance.now() - started >= this.maxMs) return settled('warn', 'drip transaction still pending; its quota slot stays taken')
      schedule()
    }
    const schedule = () => {
      const timer = setTimeout(() => void look(), this.intervalMs)
      timer.unref()
      this.followed.set(hash, timer)
    }
    schedule()
  }

  stop(): void {
    for (const timer of this.followed.values()) if (timer) clearTimeout(timer)
    this.followed.clear()
  }

  private async look(hash: Hash): Promise<'success' | 'reverted' | 'pending' | 'unknown'> {
    try {
      const receipt = await this.client.getTransactionReceipt({ hash })
      return receipt.status === 'success' ? 'success' : 'reverted'
    } catch {
      const known = await isTransactionKnown(this.client, hash)
      return known === false ? 'unknown' : 'pending'
    }
  }
}
