import { join } from 'node:path'
import type { Address, Hash } from 'viem'
import type { ServiceContext } from '../context.ts'
import { StartError } from '../http/serve.ts'
import type { Spool } from '../spool/spool.ts'
import { faucetLocator } from './deployment.ts'
import { Dripper } from './drip.ts'
import { FaucetUnavailableError } from './errors.ts'
import { Operator } from './operator.ts'
import { QuotaBook } from './quota/book.ts'
import { FaucetReader } from './read/faucetReader.ts'
import { reconcileWhenCaughtUp } from './reconcile.ts'
import { Settler, type SettleOptions } from './settle.ts'

/** The quota journal's folder under the data folder. */
export const JOURNAL_DIR = 'faucet-journal'

/** The faucet's daily quotas (docs/faucet.md); the all-time budget comes from the config. */
const DAILY_LIMITS = { perClient: 5, perAddress: 2, global: 1000 }

/** The faucet's working parts, built once per process from the service context. */
export type Faucet = {
  /** The faucet contract, or the 503 saying why there is none. */
  locate: () => Address
  reader: FaucetReader
  /** Null without an operator key: the faucet answers but does not drip. */
  dripper: Dripper | null
  book: QuotaBook | null
  settler: Settler | null
  /** Why the faucet does not drip, when it does not. */
  disabledReason: string | null
  stop: () => void
}

export type FaucetOptions = {
  /** Milliseconds since the epoch (the daily quotas follow it); tests move it. */
  clock?: () => number
  /** How drips answered "no receipt yet" are followed. */
  settle?: SettleOptions
  /** The spool, whose copy of the chain the quota counts are checked against once it has caught up. */
  spool?: Spool
}

export function createFaucet({ config, log, chain }: ServiceContext, options: FaucetOptions = {}): Faucet {
  const clock = options.clock ?? Date.now
  const reader = new FaucetReader(chain.publicClient)
  const locate = faucetLocator(config)
  const key = config.secrets.faucetKey
  if (!key) {
    return { locate, reader, dripper: null, book: null, settler: null, disabledReason: 'faucet disabled: FAUCET_OPERATOR_KEY is not set', stop: () => {} }
  }

  const settings = config.faucet
  const dir = join(config.dataDir, JOURNAL_DIR)
  let book: QuotaBook
  try {
    book = QuotaBook.open({
      dir,
      limits: { ...DAILY_LIMITS, allTime: settings.allTimeBudget },
      maxBytes: settings.journalMaxBytes,
      maxAgeMs: settings.journalMaxAgeHours * 3_600_000,
      clock,
      log,
    })
  } catch (error) {
    throw new StartError(`faucet: cannot open the quota journal in ${dir}: ${(error as Error).message}`)
  }
  const { global, allTime } = book.usage()
  const { recovery } = book
  log.info({ service: 'faucet', journal: book.journalPath, ...recovery, today: global, allTime }, 'quota journal opened')
  if (recovery.released > 0) log.info({ service: 'faucet', released: recovery.released }, 'reservations open when the faucet last stopped had sent nothing: their slots are free again')
  if (recovery.spent > 0) log.warn({ service: 'faucet', spent: recovery.spent }, 'reservations an older journal left open may have been paid: counted as spent')

  const operator = new Operator(chain, key)
  const settler = new Settler(chain.publicClient, book, operator, log, options.settle)
  // Drips the last process signed without learning their fate: the chain settles each.
  for (const { reservation, hash } of book.unsettled()) settler.follow(hash as Hash, reservation)
  const dripper = new Dripper({ client: chain.publicClient, book, reader, operator, settler, log, receiptTimeoutMs: settings.receiptTimeoutMs })
  const stopReconcile = options.spool ? reconcileWhenCaughtUp({ spool: options.spool, book, operator: operator.address, locate, clock, log }) : () => {}
  return {
    locate,
    reader,
    dripper,
    book,
    settler,
    disabledReason: null,
    stop: () => {
      stopReconcile()
      settler.stop()
      book.close()
    },
  }
}

/** The dripper, or the 503 of a faucet that does not drip. */
export function requireDripper(faucet: Faucet): Dripper {
  if (!faucet.dripper) throw new FaucetUnavailableError(faucet.disabledReason ?? 'faucet disabled')
  return faucet.dripper
}
