import type { Address, Hash, PublicClient } from 'viem'
import { statusOf } from '../http/errors.ts'
import type { Logger } from '../log.ts'
import { CoolingDownError, DripFailedError, FaucetEmptyError, NoReceiptYetError } from './errors.ts'
import { formatDuration } from '../format/duration.ts'
import { formatAmount } from './format.ts'
import { OneAtATime } from './oneAtATime.ts'
import { DripRevertedError, SendRefusedError, type Operator } from './operator.ts'
import type { QuotaBook, Reservation } from './quota/book.ts'
import type { FaucetReader, Treasury } from './read/faucetReader.ts'
import { isTransactionKnown, waitForReceipt } from './receipt.ts'
import type { Settler } from './settle.ts'

export type DripperParts = {
  client: PublicClient
  book: QuotaBook
  reader: FaucetReader
  operator: Operator
  settler: Settler
  log: Logger
  /** How long a drip waits for its receipt before answering "no receipt yet". */
  receiptTimeoutMs: number
}

/**
 * One drip, in the order docs/faucet.md gives: quotas reserved (synchronously, before anything is
 * awaited), the contract's cooldown and the treasury read from the chain, the call simulated,
 * signed and submitted, the receipt awaited. Every failure gives the reservation back, except a
 * transaction that may still land: that one is followed until the chain says what became of it.
 */
export class Dripper {
  private readonly perAddress = new OneAtATime()

  constructor(private readonly parts: DripperParts) {}

  async drip(faucet: Address, client: string, address: Address): Promise<{ hash: Hash; address: Address }> {
    const reservation = this.parts.book.reserve(client, address)
    return this.perAddress.run(address.toLowerCase(), () => this.attempt(faucet, reservation, address))
  }

  private async attempt(faucet: Address, reservation: Reservation, address: Address): Promise<{ hash: Hash; address: Address }> {
    const { book, client, log, receiptTimeoutMs } = this.parts
    let hash: Hash
    try {
      hash = await this.send(faucet, reservation, address)
    } catch (error) {
      // Also after the commit: the transaction did not go out, so it leaves the all-time total.
      book.rollback(reservation)
      if (statusOf(error) !== null) throw error
      // Whatever else went wrong before a transaction went out, the caller learns only that
      // the drip failed; the log keeps the details.
      log.error({ err: error, address }, 'drip failed before sending')
      throw new DripFailedError()
    }

    const receipt = await waitForReceipt(client, hash, receiptTimeoutMs)
    if (receipt?.status === 'success') {
      book.confirm(reservation)
      log.info({ hash, address, block: Number(receipt.blockNumber) }, 'dripped')
      return { hash, address }
    }
    if (receipt) {
      book.rollback(reservation)
      log.warn({ hash, address }, 'drip reverted on chain')
      throw new DripFailedError()
    }
    // No receipt in the window. The transaction may still land, so the slot is given back only
    // if the node does not know the transaction at all; otherwise it is followed.
    if ((await isTransactionKnown(client, hash)) === false) {
      book.rollback(reservation)
      this.parts.operator.resetNonce()
      log.warn({ hash, address }, 'drip transaction unknown to the node after the receipt window; quota slot given back')
    } else {
      this.parts.settler.follow(hash, reservation)
      log.warn({ hash, address }, 'no drip receipt within the window; following the transaction')
    }
    throw new NoReceiptYetError(hash)
  }

  /**
   * Everything up to and including the submission; throws the answer when the drip cannot go.
   * The signed transaction's hash is committed to the journal before it is sent.
   */
  private async send(faucet: Address, reservation: Reservation, address: Address): Promise<Hash> {
    const { reader, operator, book, log } = this.parts
    // The simulation runs beside the reads (it costs no nonce); the reads decide first, since
    // they give the caller the better answer (how long to wait, what is left).
    const simulation = operator.estimate(faucet, address).then(
      (gas) => ({ gas }),
      (error: unknown) => ({ error }),
    )
    const [retryIn, treasury, facts, pending] = await Promise.all([
      reader.retryIn(faucet, address),
      reader.treasury(faucet),
      reader.factsOf(faucet),
      operator.pendingNonce(),
    ])
    if (!operator.nodeFollows(pending)) {
      log.warn(
        { operator: operator.address, pending: pending.pending, counted: pending.countedBefore },
        "the node's pending nonce is below one it accepted (it forgot the operator's transactions: a revert, an older state, a dropped pool); nonces start again from the node's",
      )
    }
    if (retryIn > 0) throw coolingDown(address, retryIn)
    if (treasury.ethBalance < treasury.ethAmount || treasury.tokenBalance < treasury.tokenAmount) {
      throw empty(treasury, facts.decimals, facts.symbol)
    }

    const simulated = await simulation
    if ('error' in simulated) {
      const { error } = simulated
      if (!(error instanceof DripRevertedError)) throw error
      // The chain moved since the reads above, or something else is wrong (the key is not the
      // contract's operator, the address refuses ether): answer what the contract said.
      if (error.reason === 'CoolingDown') throw coolingDown(address, await reader.retryIn(faucet, address))
      if (error.reason === 'FaucetEmpty') throw empty(await reader.treasury(faucet), facts.decimals, facts.symbol)
      if (error.reason === 'NotOperator') log.error({ operator: operator.address, faucet }, 'the operator key is not the faucet contract operator')
      else log.warn({ reason: error.reason, address }, 'drip would revert')
      throw new DripFailedError()
    }
    const { gas } = simulated

    const signed = await operator.sign(faucet, address, gas, pending)
    book.commit(reservation, signed.hash)
    try {
      if (!(await operator.send(signed))) log.warn({ hash: signed.hash }, 'the node did not answer the drip submission in time')
      return signed.hash
    } catch (error) {
      if (!(error instanceof SendRefusedError)) throw error
      log.warn({ err: error, address }, 'the node refused the drip transaction')
      throw new DripFailedError()
    }
  }
}

function coolingDown(address: Address, retryIn: number): CoolingDownError {
  return new CoolingDownError(`cooling down: ${address} may drip again in ${formatDuration(retryIn)}`, retryIn)
}

function empty(treasury: Treasury, decimals: number, symbol: string): FaucetEmptyError {
  const left = `${formatAmount(treasury.ethBalance, 18, 'ETH')} and ${formatAmount(treasury.tokenBalance, decimals, symbol)}`
  return new FaucetEmptyError(`faucet empty: ${left} left`, {
    details: { treasuryEth: treasury.ethBalance.toString(), treasuryBx: treasury.tokenBalance.toString() },
  })
}
