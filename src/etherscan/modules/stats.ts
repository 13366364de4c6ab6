import type { Address } from 'viem'
import type { FeedPrice, Fraction } from '../../chain/ethUsdFeed.ts'
import type { Rpc } from '../../chain/rpc.ts'
import { checksum } from '../../eth/address.ts'
import { ok, type EtherscanAnswer } from '../answer.ts'
import type { EtherscanModule, Fields } from '../dispatch.ts'
import { readTokenUint } from '../node.ts'
import { addressParam, Refusal, refusing } from '../params.ts'

export type StatsDeps = { rpc: Rpc; ethUsd: () => Promise<FeedPrice | null> }

/** A fraction as an exact decimal string: every digit the denominator's power of ten gives, trailing zeros left off. */
export function decimalOf({ numerator, denominator }: Fraction): string {
  const whole = numerator / denominator
  const places = denominator.toString().length - 1
  if (denominator !== 10n ** BigInt(places)) throw new Error('the denominator must be a power of ten')
  const fraction = (numerator % denominator).toString().padStart(places, '0').replace(/0+$/, '')
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`
}

export const NO_PRICE =
  'Error! No fresh ETH/USD price: the price feed (exchange.ethUsdFeed) is not configured, does not answer, or its last answer is older than exchange.ethUsdMaxAgeSeconds'

/** Etherscan's `stats` module: the ether price from the price feed, token supplies from the contracts. */
export function statsModule({ rpc, ethUsd }: StatsDeps): EtherscanModule {
  const ethprice = async (): Promise<EtherscanAnswer> => {
    const reading = await ethUsd()
    if (!reading) throw new Refusal(NO_PRICE)
    return ok({ ethusd: decimalOf(reading.price), ethusd_timestamp: reading.updatedAt.toString() })
  }
  const tokensupply = async (fields: Fields): Promise<EtherscanAnswer> => {
    const token = addressParam(fields, 'contractaddress')
    const supply = await readTokenUint(rpc, checksum(token) as Address, { functionName: 'totalSupply' })
    if (supply === null) throw new Refusal('Error! The contract does not answer totalSupply()')
    return ok(supply)
  }
  const ethsupply = async (): Promise<EtherscanAnswer> => {
    // Ether comes into being outside blocks here (the genesis allocations, a dev chain's funding):
    // no sum of block rewards tells the supply, so none is made up.
    throw new Refusal('Error! The ether supply of this chain is not known: its ether is allocated at genesis, not issued in blocks')
  }
  return { ethprice: refusing(ethprice), tokensupply: refusing(tokensupply), ethsupply: refusing(ethsupply) }
}
