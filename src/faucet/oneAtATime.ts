/**
 * Runs tasks that share a key one after the other, tasks of different keys side by side. The
 * faucet keys drips by address: a second drip to the same address reads the cooldown only once
 * the first has landed, and answers 409 instead of sending a transaction bound to revert.
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>()

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve()
    const result = previous.then(task, task)
    const tail = result.then(
      () => undefined,
      () => undefined,
    )
    this.tails.set(key, tail)
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key)
    })
    return result
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.tails.size
  }
}
