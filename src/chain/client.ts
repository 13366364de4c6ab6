import { nodeUnreachable, NodeUnreachableError, walk } from '../errors.ts'
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  HttpRequestError,
  TimeoutError,
  type Account,
  type PublicClient,
  type WalletClient,
} from 'viem'

export type ChainOptions = {
  rpcUrl: string
  wsUrl: string
  chainId: number
  /** Per-request timeout for reads made while an HTTP request waits (live parts, status). */
  timeoutMs?: number
}

export type Chain = {
  rpcUrl: string
  wsUrl: string
  chainId: number
  /** Reads over HTTP JSON-RPC, with a short timeout and no retries: callers decide what a miss means. */
  publicClient: PublicClient
  /** A signer over the same transport. */
  walletFor: (account: Account) => WalletClient
}

/** The chain as viem sees it; the only place that knows how the node is reached. */
export function createChain({ rpcUrl, wsUrl, chainId, timeoutMs = 3000 }: ChainOptions): Chain {
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl], webSocket: [wsUrl] } },
  })
  const transport = http(rpcUrl, { timeout: timeoutMs, retryCount: 0 })
  return {
    rpcUrl,
    wsUrl,
    chainId,
    publicClient: createPublicClient({ chain, transport, pollingInterval: 250 }) as PublicClient,
    walletFor: (account) => createWalletClient({ chain, transport, account, pollingInterval: 250 }),
  }
}

/**
 * Runs reads through viem: an error that means the node could not be reached becomes the one
 * NodeUnreachableError; the node's own answers (a revert, an error) pass as they are.
 */
export async function fromChain<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (isNodeUnreachable(error)) throw nodeUnreachable(error)
    throw error
  }
}

/**
 * True when an error means the node could not be reached (refused, reset, timed out), as
 * opposed to the node answering with an error.
 */
export function isNodeUnreachable(error: unknown): boolean {
  if (error instanceof NodeUnreachableError) return true
  return walk(error, meansUnreachable) !== null
}

/** One link of an error's chain of causes that says the node was not reached. */
function meansUnreachable(cause: unknown): boolean {
  if (cause instanceof TimeoutError) return true
  if (cause instanceof HttpRequestError && cause.status === undefined) return true
  const code = (cause as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|ConnectionRefused)$/.test(code)
}
