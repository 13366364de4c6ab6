import type { SpoolDb } from '../spool/engine.ts'
import { tallyTotals } from './read/tally.ts'
import type { TallyTotals } from './tallyStream.ts'

/**
 * The chain's tally as the stats read it: blocks, transactions, gas, wallets, accounts and
 * contracts, which the `tally` stream keeps in the spool (tallyStream.ts) as the spool's worker
 * derives it, so a start reads them at once instead of counting the whole spool again. They lag
 * the spool by a stream pass at most (the stats' `derivedLag` says how far).
 */
export class ChainTally {
  constructor(private readonly db: SpoolDb) {}

  totals(): Promise<TallyTotals> {
    return tallyTotals(this.db)
  }
}
