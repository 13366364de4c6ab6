import type { Address } from 'viem'
import { displayUnits, formatAmount, formatDuration } from '../format.ts'
import type { FaucetReader } from './faucetReader.ts'

/** The faucet status object of spec 02 (the bx-prefixed keys are the native token's; historic names). */
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
}

/**
 * Reads the status from the chain, every figure at the same block. With an address it also
 * says whether the contract's cooldown lets that address drip now; the service's own daily
 * quotas are not part of that answer.
 */
export async function readStatus(reader: FaucetReader, faucet: Address, address: Address | null): Promise<FaucetStatus> {
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
    status.canDrip = retryIn === 0
    status.retryIn = retryIn
    status.retryInFmt = formatDuration(retryIn)
  }
  return status
}
