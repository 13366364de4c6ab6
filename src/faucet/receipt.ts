import { TransactionNotFoundError, type Hash, type PublicClient, type TransactionReceipt } from 'viem'
import { Backoff } from '../time/backoff.ts'
import { pollUntil } from '../time/poll.ts'

/**
 * Polls for a receipt until `timeoutMs` has passed; null when none came. A node that does not
 * answer a poll is asked again at the next one: the transaction is out, only its fate is unknown.
 * The first polls come quickly (a node that mines on arrival has the receipt within
 * milliseconds), later ones every `maxPollMs` (a node that mines on an interval takes a while).
 */
export async function waitForReceipt(client: PublicClient, hash: Hash, timeoutMs: number, maxPollMs = 100): Promise<TransactionReceipt | null> {
  const polls = new Backoff(5, maxPollMs)
  // Not mined yet, or a poll that failed (node unreachable): asked again until the deadline.
  const receipt = () => client.getTransactionReceipt({ hash }).catch((): null => null)
  const { value } = await pollUntil(receipt, (found) => found !== null, { timeoutMs, intervalMs: () => polls.fail() })
  return value
}

/**
 * Whether the node knows the transaction (pending or mined): true, false, or null when the
 * node cannot say (unreachable), which callers must treat as "may still land".
 */
export async function isTransactionKnown(client: PublicClient, hash: Hash): Promise<boolean | null> {
  try {
    await client.getTransaction({ hash })
    return true
  } catch (error) {
    return error instanceof TransactionNotFoundError ? false : null
  }
}
