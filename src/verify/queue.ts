import { VerificationQueueFullError } from './errors.ts'

/**
 * Jobs admitted at once up to `concurrency + capacity`: at most `concurrency` hold a slot (run a
 * compile), the rest wait in turn. Admission is decided when asked, so a caller can refuse a job
 * before it answers anything.
 */
export class JobQueue {
  private admitted = 0
  private running = 0
  private readonly turns: Array<() => void> = []

  constructor(
    private readonly concurrency: number,
    private readonly capacity: number,
  ) {}

  /** Jobs admitted that do not hold a slot. */
  get waiting(): number {
    return this.admitted - this.running
  }

  get full(): boolean {
    return this.admitted >= this.concurrency + this.capacity
  }

  /** Takes a place in the queue, or throws VerificationQueueFullError at once; `leave()` gives it back. */
  admit(): { leave: () => void } {
    if (this.full) throw new VerificationQueueFullError()
    this.admitted++
    let left = false
    return {
      leave: () => {
        if (left) return
        left = true
        this.admitted--
      },
    }
  }

  /** Runs `task` in a slot, waiting for one when all are taken. */
  async inSlot<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.turns.push(resolve))
    else this.running++
    try {
      return await task()
    } finally {
      // The slot passes straight to the next in turn, so `running` stays counted for it.
      const next = this.turns.shift()
      if (next) next()
      else this.running--
    }
  }
}
