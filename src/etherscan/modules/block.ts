import type { SpoolDb } from '../../spool/engine.ts'
import { blockByNumber, blockByTime, blockFees, recentBlockTimes, spoolHead } from '../../spool/read.ts'
import { ok, type EtherscanAnswer } from '../answer.ts'
import type { EtherscanModule, Fields } from '../dispatch.ts'
import { integerParam, Refusal, refusing } from '../params.ts'
import { lower } from '../rows.ts'

/**
 * What a block's miner earned: the tips its transactions paid, each its gas used times its price
 * above the base fee (which is burnt). The chain pays no block subsidy, so that is all of it.
 */
export function blockReward(fees: Array<{ gasUsed: number; effectiveGasPrice: string | null; gasPrice: string | null }>, baseFee: string | null): string {
  const base = BigInt(baseFee ?? '0')
  let total = 0n
  for (const fee of fees) {
    const price = BigInt(fee.effectiveGasPrice ?? fee.gasPrice ?? '0')
    if (price > base) total += BigInt(fee.gasUsed) * (price - base)
  }
  return total.toString()
}

/** How many recent blocks the countdown's block time is averaged over. */
const COUNTDOWN_SAMPLE = 100

/** Etherscan's `block` module, from the spool's blocks. */
export function blockModule(db: SpoolDb): EtherscanModule {
  const blockNumber = (fields: Fields) => integerParam(fields, 'blockno', -1, 'Error! Invalid block number')

  const getblockreward = async (fields: Fields): Promise<EtherscanAnswer> => {
    const number = blockNumber(fields)
    if (number < 0) throw new Refusal('Error! Invalid block number')
    const block = await blockByNumber(db, number)
    if (!block) throw new Refusal(((await spoolHead(db)) ?? -1) < number ? 'Error! Block number not yet reached' : 'Error! Block not found')
    return ok({
      blockNumber: String(block.number),
      timeStamp: String(block.timestamp),
      blockMiner: lower(block.miner),
      blockReward: blockReward(await blockFees(db, block.number), block.baseFee),
      uncles: [],
      uncleInclusionReward: '0',
    })
  }

  const getblockcountdown = async (fields: Fields): Promise<EtherscanAnswer> => {
    const target = blockNumber(fields)
    if (target < 0) throw new Refusal('Error! Invalid block number')
    const head = (await spoolHead(db)) ?? -1
    if (target <= head) throw new Refusal('Error! Block number already pass')
    const times = await recentBlockTimes(db, COUNTDOWN_SAMPLE)
    const perBlock = times.length > 1 ? (times[0]! - times.at(-1)!) / (times.length - 1) : 1
    const remaining = target - head
    return ok({ CurrentBlock: String(head), CountdownBlock: String(target), RemainingBlock: String(remaining), EstimateTimeInSec: (remaining * perBlock).toFixed(1) })
  }

  const getblocknobytime = async (fields: Fields): Promise<EtherscanAnswer> => {
    const timestamp = integerParam(fields, 'timestamp', -1, 'Error! Invalid timestamp')
    if (timestamp < 0) throw new Refusal('Error! Invalid timestamp')
    const closest = fields.get('closest') ?? 'before'
    if (closest !== 'before' && closest !== 'after') throw new Refusal('Error! Invalid closest value, use before or after')
    const number = await blockByTime(db, timestamp, closest)
    if (number === null) throw new Refusal('Error! No closest block found')
    return ok(String(number))
  }

  return { getblockreward: refusing(getblockreward), getblockcountdown: refusing(getblockcountdown), getblocknobytime: refusing(getblocknobytime) }
}
