import { describe, expect, test } from 'bun:test'
import { waitFor } from './wait.ts'

// Nothing listens on port 9 of this machine (discard, never served here): a refused connection.
const REFUSED = 'http://127.0.0.1:9/'

describe('waitFor', () => {
  test('a probe refused by a server not yet there is asked again until it answers', async () => {
    let calls = 0
    const answer = await waitFor(async () => {
      calls++
      if (calls < 3) await fetch(REFUSED)
      return 'up'
    }, 'the server', 5_000)
    expect(answer).toBe('up')
    expect(calls).toBe(3)
  })

  test('at the timeout, what it waited for and the last connection error are said', async () => {
    await expect(waitFor(async () => (await fetch(REFUSED)).ok, 'port 9', 200)).rejects.toThrow(/^timed out after 200 ms waiting for port 9 \(last: .+\)$/)
  })

  test('any other error fails at once', async () => {
    let calls = 0
    await expect(
      waitFor(() => {
        calls++
        throw new Error('not a socket')
      }, 'nothing', 5_000),
    ).rejects.toThrow('not a socket')
    expect(calls).toBe(1)
  })
})
