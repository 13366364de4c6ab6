/**
 * The inbound message budget of one socket: `burst` messages at once, refilled at `ratePerSecond`.
 * Each message takes one token; a message with none left is over the rate.
 */
export class TokenBucket {
  private tokens: number
  private last: number

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    now = performance.now(),
  ) {
    this.tokens = burst
    this.last = now
  }

  /** Takes one token; false when the bucket is empty. */
  take(now = performance.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond)
    this.last = now
    if (this.tokens < 1) return false
    this.tokens -= 1
    return true
  }
}
