import { steadyClock, type Clock } from '../cache.ts'
import { NodeUnreachableError } from '../errors.ts'

/** How long, after a read could not reach the node, reads made while a request waits skip it. */
export const NODE_DOWN_FOR_MS = 2000

/**
 * What a reader that answers requests remembers of the node being gone: after a read could not
 * reach it, the reads of the next two seconds skip it at once rather than each waiting out its
 * timeout (a node that hangs would hold every request that long). A read that reaches the node
 * ends the outage.
 */
export class NodeOutage {
  private until = 0

  constructor(private readonly clock: Clock = steadyClock) {}

  /** Whether reads skip the node now. */
  get down(): boolean {
    return this.clock() < this.until
  }

  reached(): void {
    this.until = 0
  }

  failed(): void {
    this.until = this.clock() + NODE_DOWN_FOR_MS
  }

  /**
   * Runs a read of the node unless it is down (then a NodeUnreachableError at once), and notes
   * how it went: a NodeUnreachableError starts an outage, any other end (the node's own error
   * too) ends one.
   */
  async read<T>(read: () => Promise<T>): Promise<T> {
    if (this.down) throw new NodeUnreachableError('the node cannot be reached: it could not be a moment ago')
    try {
      const value = await read()
      this.reached()
      return value
    } catch (error) {
      if (error instanceof NodeUnreachableError) this.failed()
      else this.reached()
      throw error
    }
  }
}
