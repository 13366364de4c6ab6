import { decodeFunctionData, hexToBytes, toFunctionSelector, type Address } from 'viem'
import { hex } from '../eth/bytes.ts'
import type { Logger } from '../log.ts'
import type { SpoolHealth } from '../spool/health.ts'
import type { Spool } from '../spool/spool.ts'
import { faucetAbi } from './contract.ts'
import { utcDay } from './quota/day.ts'
import type { QuotaBook } from './quota/book.ts'
import type { ChainCounts } from './quota/tally.ts'
import { successfulCalls } from './read/faucetReader.ts'

const DRIP_TO = hexToBytes(toFunctionSelector('function dripTo(address to)'))

/**
 * What the chain shows the faucet paid: the operator's successful `dripTo` calls to the faucet
 * contract, as the spool holds them, over all time and on `today` (UTC) per funded address.
 */
export async function paidByChain(db: Spool['reader'], operator: Address, faucet: Address, today: string): Promise<ChainCounts> {
  const calls = await successfulCalls(db, hexToBytes(operator), hexToBytes(faucet), DRIP_TO)
  const addresses = new Map<string, number>()
  let global = 0
  for (const { input, timestamp } of calls) {
    if (utcDay(timestamp * 1000) !== today) continue
    const { args } = decodeFunctionData({ abi: faucetAbi, data: hex(input) })
    const to = (args[0] as Address).toLowerCase()
    addresses.set(to, (addresses.get(to) ?? 0) + 1)
    global++
  }
  return { day: today, global, addresses, allTime: calls.length }
}

export type ReconcileParts = {
  spool: Spool
  book: QuotaBook
  operator: Address
  /** The faucet contract; throws while none is known (no deployment yet). */
  locate: () => Address
  clock: () => number
  log: Logger
}

/**
 * The chain is the truth for what was paid. Once the spool has caught up with the node (and the
 * faucet contract is known), the quota counters are raised to what the chain shows: a journal
 * file that was lost (or a drip counted nowhere) then costs no under-count. Returns the
 * unsubscribe, for a faucet that stops before that moment.
 */
export function reconcileWhenCaughtUp({ spool, book, operator, locate, clock, log }: ReconcileParts): () => void {
  let done = false
  const attempt = async (health: SpoolHealth) => {
    if (done || health.spoolHeadBlock === null || health.lagBlocks !== 0) return
    let faucet: Address
    try {
      faucet = locate()
    } catch {
      return // no faucet contract known yet: the next health report tries again
    }
    done = true
    unsubscribe()
    try {
      const before = book.usage()
      const chain = await paidByChain(spool.reader, operator, faucet, utcDay(clock()))
      const paid = { allTime: chain.allTime, today: chain.global, atBlock: health.spoolHeadBlock }
      if (book.raiseTo(chain)) {
        const after = book.usage()
        log.warn({ service: 'faucet', paid, before: { allTime: before.allTime, today: before.global }, after: { allTime: after.allTime, today: after.global } }, 'quota counts raised to what the chain paid')
      } else {
        log.info({ service: 'faucet', paid }, 'quota counts agree with what the chain paid')
      }
    } catch (error) {
      // A spool or journal that cannot be read or written now: the counters stay as the journal has them.
      log.error({ service: 'faucet', err: error }, 'the quota counts could not be checked against the chain')
    }
  }
  // Each attempt ends in its own catch; none is awaited.
  const unsubscribe = spool.onHealth((health) => void attempt(health))
  void attempt(spool.health())
  return () => {
    done = true
    unsubscribe()
  }
}
