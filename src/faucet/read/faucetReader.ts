import type { SpoolDb } from '../../spool/engine.ts'
import type { Address, PublicClient } from 'viem'
import { fromChain } from '../../chain/client.ts'
import { blockAsMiniBlock, type MiniBlock } from '../../chain/miniBlocks.ts'
import { callsFromTo } from '../../spool/read.ts'
import { faucetAbi, tokenAbi } from '../contract.ts'

/** What one drip pays and what the contract holds to pay it with. */
export type Treasury = { ethAmount: bigint; tokenAmount: bigint; ethBalance: bigint; tokenBalance: bigint }

/** What never changes for a deployed faucet: its token and its cooldown. */
export type FaucetFacts = { token: Address; decimals: number; symbol: string; cooldown: number }

/** A call as the spool holds it: the transaction's input and its block's time in seconds. */
export type SpoolCall = { input: Uint8Array; timestamp: number }

/**
 * The successful transactions `from` sent to `to` whose input starts with `selector` (a function's
 * four bytes), oldest first, from the spool (its read-only connection). Addresses are the 20 bytes
 * the spool keys on.
 */
export async function successfulCalls(db: SpoolDb, from: Uint8Array, to: Uint8Array, selector: Uint8Array): Promise<SpoolCall[]> {
  return (await callsFromTo(db, from, to, selector)).filter((call) => call.status === 1).map(({ input, timestamp }) => ({ input, timestamp }))
}

/**
 * Reads the faucet contract. The token, its decimals and symbol and the cooldown are immutable
 * in the contract, so they are read once per faucet address; amounts and balances every time.
 */
export class FaucetReader {
  private readonly facts = new Map<Address, Promise<FaucetFacts>>()

  constructor(private readonly client: PublicClient) {}

  factsOf(faucet: Address): Promise<FaucetFacts> {
    let facts = this.facts.get(faucet)
    if (!facts) {
      facts = fromChain(() => this.readFacts(faucet))
      this.facts.set(faucet, facts)
      // A failed read is not remembered: the next request tries again.
      facts.catch(() => this.facts.delete(faucet))
    }
    return facts
  }

  /** Drip amounts and balances, at `blockNumber` or the latest block. */
  async treasury(faucet: Address, blockNumber?: bigint): Promise<Treasury> {
    const { token } = await this.factsOf(faucet)
    const read = { address: faucet, abi: faucetAbi, blockNumber } as const
    return fromChain(async () => {
      const [ethAmount, tokenAmount, ethBalance, tokenBalance] = await Promise.all([
        this.client.readContract({ ...read, functionName: 'ethAmount' }),
        this.client.readContract({ ...read, functionName: 'tokenAmount' }),
        this.client.getBalance({ address: faucet, blockNumber }),
        this.client.readContract({ address: token, abi: tokenAbi, functionName: 'balanceOf', args: [faucet], blockNumber }),
      ])
      return { ethAmount, tokenAmount, ethBalance, tokenBalance }
    })
  }

  /** Seconds until `address` may drip again according to the contract; 0 when it may now. */
  retryIn(faucet: Address, address: Address, blockNumber?: bigint): Promise<number> {
    return fromChain(async () => Number(await this.client.readContract({ address: faucet, abi: faucetAbi, functionName: 'retryIn', args: [address], blockNumber })))
  }

  /** The node's head: its latest block, and the mini-block head that block makes (the chain layer's rule). */
  head(): Promise<{ blockNumber: bigint; miniBlock: MiniBlock }> {
    return fromChain(async () => {
      const block = await this.client.getBlock({ blockTag: 'latest' })
      const miniBlock = blockAsMiniBlock({ number: Number(block.number), hash: block.hash, timestamp: Number(block.timestamp), txCount: block.transactions.length })
      return { blockNumber: block.number, miniBlock }
    })
  }

  private async readFacts(faucet: Address): Promise<FaucetFacts> {
    const [token, cooldown] = await Promise.all([
      this.client.readContract({ address: faucet, abi: faucetAbi, functionName: 'token' }),
      this.client.readContract({ address: faucet, abi: faucetAbi, functionName: 'COOLDOWN' }),
    ])
    const [decimals, symbol] = await Promise.all([
      this.client.readContract({ address: token, abi: tokenAbi, functionName: 'decimals' }),
      this.client.readContract({ address: token, abi: tokenAbi, functionName: 'symbol' }),
    ])
    return { token, decimals, symbol, cooldown: Number(cooldown) }
  }
}
