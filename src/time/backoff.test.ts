import { describe, expect, test } from 'bun:test'
import { Backoff, doublingDelay } from './backoff.ts'

describe('doubling backoff', () => {
  test('waits double from the first wait and stop at the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => doublingDelay(attempt, 250, 10_000))).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000])
    // However long a failure lasts, the wait stays a finite number at the cap.
    expect(doublingDelay(5000, 250, 10_000)).toBe(10_000)
    expect(doublingDelay(5000, 0, 10_000)).toBe(0)
  })

  test('counts the failures in a row, since the first, until a success resets it', () => {
    const backoff = new Backoff(5, 100)
    expect(backoff.attempts).toBe(0)
    expect(backoff.since).toBeNull()
    expect([1000, 2000, 3000, 4000, 5000, 6000].map((now) => backoff.fail(now))).toEqual([5, 10, 20, 40, 80, 100])
    expect(backoff.attempts).toBe(6)
    expect(backoff.since).toBe(1000)
    expect(backoff.nextInMs).toBe(100)
    backoff.reset()
    expect([backoff.attempts, backoff.since, backoff.nextInMs]).toEqual([0, null, 0])
    expect(backoff.fail(7000)).toBe(5)
    expect(backoff.since).toBe(7000)
  })
})
