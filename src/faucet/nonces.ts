/**
 * The operator's nonces. Concurrent drips take consecutive nonces from a counter kept here, which
 * never runs behind the node's pending count (the node's count alone collides under concurrency).
 *
 * The node can forget transactions it accepted: an `evm_revert`, a node restarted from an older
 * state, a pool that dropped them. Its pending count then falls below nonces it had counted, and
 * every nonce handed out after that would wait in its queue behind the gap, never mined. So each
 * drip reads the node's pending count and compares it with what the node must count by now.
 *
 * What the node must count is not the highest nonce it accepted: concurrent sends reach it out of
 * order, and a transaction accepted while an earlier nonce is still on its way waits in the
 * queue, uncounted, without anything being wrong. It is the end of the unbroken run of nonces the
 * node has accepted (or that were already counted when this process took its first nonce).
 */
export class OperatorNonces {
  /** The nonce the next drip takes, as far as this process knows; null to take the node's count. */
  private next: number | null = null
  /** Every nonce up to this one was accepted by the node (or counted by it before we began); -1 before any. */
  private counted = -1
  /** Nonces accepted above `counted`, waiting for the ones before them. */
  private readonly acceptedAhead = new Set<number>()

  /** Read before asking the node for its count, to be handed to `follows` with the answer. */
  get countedSoFar(): number {
    return this.counted
  }

  /**
   * Whether the node's pending count (read after `countedSoFar` was) still counts every nonce it
   * must. When it does not, the node forgot: the counter starts again from the node's count.
   */
  follows(pending: number, countedBefore: number): boolean {
    if (pending > countedBefore) return true
    this.next = pending
    this.counted = pending - 1
    this.acceptedAhead.clear()
    return false
  }

  /** The nonce for the next transaction, given the node's pending count read for this drip. */
  take(pending: number): number {
    // The node already counts every nonce below its pending count.
    this.advance(pending - 1)
    const nonce = Math.max(pending, this.next ?? 0)
    this.next = nonce + 1
    return nonce
  }

  /** The node accepted the transaction with this nonce. */
  sent(nonce: number): void {
    if (nonce <= this.counted) return
    this.acceptedAhead.add(nonce)
    while (this.acceptedAhead.delete(this.counted + 1)) this.counted++
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

  private advance(to: number): void {
    if (to <= this.counted) return
    this.counted = to
    for (const nonce of this.acceptedAhead) if (nonce <= to) this.acceptedAhead.delete(nonce)
    while (this.acceptedAhead.delete(this.counted + 1)) this.counted++
  }
}
