import {
  BaseError,
  ContractFunctionRevertedError,
  createNonceManager,
  encodeFunctionData,
  keccak256,
  TimeoutError,
  type Address,
  type Hash,
  type Hex,
  type PrivateKeyAccount,
  type WalletClient,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { jsonRpc } from 'viem/nonce'
import { isNodeUnreachable, type Chain } from '../chain/client.ts'
import { faucetAbi } from './contract.ts'
import { NodeUnreachableError } from './errors.ts'
import { fromChain } from './reads.ts'

/** The contract refused the drip when it was simulated; `reason` is its custom error's name. */
export class DripRevertedError extends Error {
  override name = 'DripRevertedError'
  constructor(
    readonly reason: string,
    readonly args: readonly unknown[],
  ) {
    super(`dripTo would revert: ${reason}`)
  }
}

/** The node turned the signed transaction down (a nonce clash, no gas money, ...). */
export class SendRefusedError extends Error {
  override name = 'SendRefusedError'
}

/** A submission: the hash is known from the signed bytes, whether or not the node answered. */
export type Submission = { hash: Hash; answered: boolean }

/**
 * The operator key and what it signs: `dripTo` calls to the faucet contract. A nonce manager
 * hands concurrent sends consecutive nonces (the node's pending count alone collides). Each
 * operator has its own: viem's shared one would carry nonces over from another chain that
 * the same key signed on in this process.
 */
export class Operator {
  readonly account: PrivateKeyAccount
  private readonly wallet: WalletClient

  constructor(
    private readonly chain: Chain,
    key: Hex,
  ) {
    this.account = privateKeyToAccount(key, { nonceManager: createNonceManager({ source: jsonRpc() }) })
    this.wallet = chain.walletFor(this.account)
  }

  get address(): Address {
    return this.account.address
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
   * Signs `dripTo(to)` and submits it. The hash is computed from the signed bytes, so a send
   * whose answer timed out still names the transaction that may land. Refused by the node: a
   * SendRefusedError; node unreachable before sending: NodeUnreachableError (nothing went out).
   */
  async submit(faucet: Address, to: Address, gas: bigint): Promise<Submission> {
    let signed: Hex
    try {
      const request = await fromChain(() =>
        this.wallet.prepareTransactionRequest({
          account: this.account,
          chain: this.wallet.chain,
          to: faucet,
          data: encodeFunctionData({ abi: faucetAbi, functionName: 'dripTo', args: [to] }),
          gas,
          nonceManager: this.account.nonceManager,
        }),
      )
      signed = await this.account.signTransaction(request as never)
    } catch (error) {
      this.resetNonce()
      throw error
    }
    const hash = keccak256(signed)
    try {
      await this.wallet.sendRawTransaction({ serializedTransaction: signed })
      return { hash, answered: true }
    } catch (error) {
      // A timeout leaves it open whether the node took the transaction: the caller finds out.
      if (error instanceof BaseError && error.walk((cause) => cause instanceof TimeoutError) instanceof TimeoutError) {
        return { hash, answered: false }
      }
      this.resetNonce()
      if (isNodeUnreachable(error)) throw new NodeUnreachableError()
      throw new SendRefusedError((error as Error).message.split('\n')[0])
    }
  }

  /** After a nonce went unused, the next send asks the node again instead of leaving a gap. */
  resetNonce(): void {
    this.account.nonceManager?.reset({ address: this.account.address, chainId: this.chain.chainId })
  }
}
