import type { Address } from 'viem'
import type { QuotaExceededError } from '../errors.ts'
import { formatDuration } from '../../format/duration.ts'
import { displayUnits, formatAmount } from '../format.ts'
import type { FaucetReader } from './faucetReader.ts'

/** The faucet status object of docs/faucet.md (the bx-prefixed keys are the native token's; historic names). */
export type FaucetStatus = {
  faucet: Address
  nativeToken: Address
  ethAmount: string
  bxAmount: string
  ethAmountEth: string
  bxAmountBx: string
  treasuryEth: string
  treasuryBx: string
  treasuryEthFmt: string
  treasuryBxFmt: string
  cooldown: number
  evmBlock: number
  miniBlock: number
  canDrip?: boolean
  retryIn?: number
  retryInFmt?: string
  /** The faucet's own quota that refuses the address now (`address`, `global` or `allTime`), else null. */
  quota?: QuotaExceededError['quota'] | null
}

/**
 * Reads the status from the chain, every figure at the same block. With an address it also says
 * whether a drip to it would pass now: the contract's cooldown has run out and `refusal`, the
 * faucet's own quota that would refuse it whoever asks (see QuotaBook.refusalFor), is null.
 * `retryIn` is then the wait for both: the cooldown's, or the turn of the day when a daily quota
 * is spent and resets later; the all-time budget never resets, so it leaves the cooldown's.
 */
export async function readStatus(reader: FaucetReader, faucet: Address, address: Address | null, refusal: QuotaExceededError | null = null): Promise<FaucetStatus> {
  const [facts, { blockNumber, miniBlock }] = await Promise.all([reader.factsOf(faucet), reader.head()])
  const [treasury, retryIn] = await Promise.all([
    reader.treasury(faucet, blockNumber),
    address ? reader.retryIn(faucet, address, blockNumber) : Promise.resolve(null),
  ])
  const status: FaucetStatus = {
    faucet,
    nativeToken: facts.token,
    ethAmount: treasury.ethAmount.toString(),
    bxAmount: treasury.tokenAmount.toString(),
    ethAmountEth: displayUnits(treasury.ethAmount, 18),
    bxAmountBx: displayUnits(treasury.tokenAmount, facts.decimals),
    treasuryEth: treasury.ethBalance.toString(),
    treasuryBx: treasury.tokenBalance.toString(),
    treasuryEthFmt: formatAmount(treasury.ethBalance, 18, 'ETH'),
    treasuryBxFmt: formatAmount(treasury.tokenBalance, facts.decimals, facts.symbol),
    cooldown: facts.cooldown,
    evmBlock: Number(blockNumber),
    // The node's mini-block head, read with its head block.
    miniBlock: miniBlock.number,
  }
  if (retryIn !== null) {
    const resetsIn = refusal?.details.resetsIn
    const wait = typeof resetsIn === 'number' ? Math.max(retryIn, resetsIn) : retryIn
    status.canDrip = retryIn === 0 && refusal === null
    status.retryIn = wait
    status.retryInFmt = formatDuration(wait)
    status.quota = refusal?.quota ?? null
  }
  return status
}
