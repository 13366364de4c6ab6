import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  keccak256,
  TimeoutError,
  type Address,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
  type TransactionSerializable,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { fromChain, isNodeUnreachable, type Chain } from '../chain/client.ts'
import { faucetAbi } from './contract.ts'
import { firstLine, nodeUnreachable, StackError } from '../errors.ts'
import { OperatorNonces } from './nonces.ts'

/** The contract refused the drip when it was simulated; `reason` is its custom error's name. */
export class DripRevertedError extends StackError {
  override name = 'DripRevertedError'
  constructor(
    readonly reason: string,
    readonly args: readonly unknown[],
  ) {
    super(`dripTo would revert: ${reason}`)
  }
}

/** The node turned the signed transaction down (a nonce clash, no gas money, ...). */
export class SendRefusedError extends StackError {
  override name = 'SendRefusedError'
}

/** A drip transaction signed and not yet sent: its hash is known from the signed bytes. */
export type Signed = { hash: Hash; nonce: number; serialized: Hex }

/** The node's pending count for the operator, with what this process knew the node must count before the read. */
export type PendingNonce = { pending: number; countedBefore: number }

/**
 * The operator key and what it signs: `dripTo` calls to the faucet contract. Its nonces come
 * from OperatorNonces, checked against the node's pending count at every drip, so a node that
 * forgets transactions (a revert, an older state) does not leave every later drip queued behind
 * a gap.
 */
export class Operator {
  readonly account: PrivateKeyAccount
  private readonly wallet: WalletClient
  private readonly nonces = new OperatorNonces()

  constructor(
    private readonly chain: Chain,
    key: Hex,
  ) {
    this.account = privateKeyToAccount(key)
    this.wallet = chain.walletFor(this.account)
  }

  get address(): Address {
    return this.account.address
  }

  /** The node's pending count for the operator, read beside a drip's other reads. */
  async pendingNonce(): Promise<PendingNonce> {
    const countedBefore = this.nonces.countedSoFar
    const pending = await fromChain(() => this.chain.publicClient.getTransactionCount({ address: this.account.address, blockTag: 'pending' }))
    return { pending, countedBefore }
  }

  /**
   * Whether the node still counts every transaction it accepted from the operator; when it does
   * not (it forgot them), the nonces start again from its count and false says so.
   */
  nodeFollows({ pending, countedBefore }: PendingNonce): boolean {
    return this.nonces.follows(pending, countedBefore)
  }

  /**
   * Gas for `dripTo(to)`, simulated before a nonce is taken, so a drip the contract would
   * refuse costs neither a nonce nor a signature. A refusal is a DripRevertedError.
   */
  async estimate(faucet: Address, to: Address): Promise<bigint> {
    try {
      const gas = await fromChain(() =>
        this.chain.publicClient.estimateContractGas({ address: faucet, abi: faucetAbi, functionName: 'dripTo', args: [to], account: this.account }),
      )
      // Headroom for state that moves between the simulation and the block; unused gas is not paid.
      return (gas * 5n) / 4n
    } catch (error) {
      const reverted = error instanceof BaseError ? error.walk((cause) => cause instanceof ContractFunctionRevertedError) : null
      if (reverted instanceof ContractFunctionRevertedError) {
        throw new DripRevertedError(reverted.data?.errorName ?? reverted.reason ?? 'unknown', reverted.data?.args ?? [])
      }
      throw error
    }
  }

  /**
   * Signs `dripTo(to)` with the next nonce. Nothing is sent: the caller writes the hash down
   * first. A failure here leaves the nonce unused.
   */
  async sign(faucet: Address, to: Address, gas: bigint, { pending }: PendingNonce): Promise<Signed> {
    const nonce = this.nonces.take(pending)
    try {
      const request = await fromChain(() =>
        this.wallet.prepareTransactionRequest({
          account: this.account,
          chain: this.wallet.chain,
          to: faucet,
          data: encodeFunctionData({ abi: faucetAbi, functionName: 'dripTo', args: [to] }),
          gas,
          nonce,
        }),
      )
      // The type (legacy or EIP-1559) is the one viem chose for this node; its union of request
      // shapes is wider than what signTransaction's overloads name.
      const serialized = await this.account.signTransaction(request as TransactionSerializable)
      return { hash: keccak256(serialized), nonce, serialized }
    } catch (error) {
      this.nonces.unused(nonce)
      throw error
    }
  }

  /**
   * Sends a signed drip. True when the node took it; false when its answer timed out, which
   * leaves it open whether the transaction went in (the caller finds out). Refused by the node: a
   * SendRefusedError; node unreachable before sending: NodeUnreachableError (nothing went out).
   */
  async send({ serialized, nonce }: Signed): Promise<boolean> {
    try {
      await this.wallet.sendRawTransaction({ serializedTransaction: serialized })
      this.nonces.sent(nonce)
      return true
    } catch (error) {
      if (error instanceof BaseError && error.walk((cause) => cause instanceof TimeoutError) instanceof TimeoutError) return false
      this.nonces.unused(nonce)
      if (isNodeUnreachable(error)) throw nodeUnreachable(error)
      throw new SendRefusedError(firstLine(error))
    }
  }

  /** After a nonce went unused for good (a dropped transaction), the next drip takes the node's count. */
  resetNonce(): void {
    this.nonces.reset()
  }
}
