/**
 * The operator's nonces. Concurrent drips take consecutive nonces from a counter kept here, which
 * never runs behind the node's pending count (the node's count alone collides under concurrency).
 *
 * The node can forget transactions it accepted: an `evm_revert`, a node restarted from an older
 * state, a pool that dropped them. Its pending count then falls below a nonce it accepted, and
 * every nonce handed out after that would wait in its queue behind the gap, never mined. So each
 * drip reads the node's pending count, and a count below a nonce the node had accepted before the
 * read starts the counter again from the node's count.
 */
export class OperatorNonces {
  /** The nonce the next drip takes, as far as this process knows; null to take the node's count. */
  private next: number | null = null
  /** The highest nonce the node has accepted a transaction for; -1 before the first. */
  private accepted = -1

  /** Read before asking the node for its count, to be handed to `follows` with the answer. */
  get acceptedSoFar(): number {
    return this.accepted
  }

  /**
   * Whether the node's pending count (read after `acceptedSoFar` was) still counts every
   * transaction it accepted. When it does not, the counter starts again from the node's count.
   */
  follows(pending: number, acceptedBefore: number): boolean {
    if (pending > acceptedBefore) return true
    this.next = pending
    this.accepted = pending - 1
    return false
  }

  /** The nonce for the next transaction, given the node's pending count read for this drip. */
  take(pending: number): number {
    const nonce = Math.max(pending, this.next ?? 0)
    this.next = nonce + 1
    return nonce
  }

  /** The node accepted the transaction with this nonce. */
  sent(nonce: number): void {
    if (nonce > this.accepted) this.accepted = nonce
  }

  /**
   * No transaction went out with this nonce: the next drip takes it again if it was the last one
   * handed out; otherwise the node's count decides, so that no gap is left.
   */
  unused(nonce: number): void {
    this.next = this.next === nonce + 1 ? nonce : null
  }

  /** Forget the counter: the next drip takes the node's pending count. */
  reset(): void {
    this.next = null
  }
}
