import { describe, expect, test } from 'bun:test'
import { AnswerCache } from './answerCache.ts'

const text = async (answer: Response | Promise<Response>) => (await answer).text()

describe('kept answers', () => {
  test('one computation while the version holds; the next version computes again', async () => {
    let version = 1
    let computed = 0
    const cache = new AnswerCache(() => version, 60_000)
    const compute = () => ({ n: ++computed })
    expect(await text(cache.answer('k', compute))).toBe('{"n":1}')
    const hit = cache.answer('k', compute)
    // A kept answer is there at once, not after a turn of the event loop.
    expect(hit).toBeInstanceOf(Response)
    expect(await text(hit)).toBe('{"n":1}')
    expect((await hit).headers.get('content-type')).toStartWith('application/json')
    version = 2
    expect(await text(cache.answer('k', compute))).toBe('{"n":2}')
    expect(await text(cache.answer('other', compute))).toBe('{"n":3}')
  })

  test('an answer older than its age is computed again, whatever the version', async () => {
    let computed = 0
    let now = 1000
    const cache = new AnswerCache(() => 0, 30, undefined, () => now)
    expect(await text(cache.answer('k', () => ++computed))).toBe('1')
    now += 29
    expect(await text(cache.answer('k', () => ++computed))).toBe('1')
    now += 11
    expect(await text(cache.answer('k', () => ++computed))).toBe('2')
  })

  test('the age counts from the start of the computation; with no age nothing is kept', async () => {
    let now = 1000
    let computed = 0
    const cache = new AnswerCache(() => 0, 30, undefined, () => now)
    const slow = async () => {
      now += 20
      await Bun.sleep(1)
      return ++computed
    }
    expect(await text(cache.answer('k', slow))).toBe('1')
    now += 9
    expect(await text(cache.answer('k', slow))).toBe('1')
    now += 2
    expect(await text(cache.answer('k', slow))).toBe('2')
    // Longer than its age: answered, and stale at once.
    const slower = async () => {
      now += 40
      return ++computed
    }
    expect(await text(cache.answer('late', slower))).toBe('3')
    now += 1
    expect(await text(cache.answer('late', slower))).toBe('4')

    const never = new AnswerCache(() => 0, 0, undefined, () => now)
    expect(await text(never.answer('k', () => ++computed))).toBe('5')
    expect(await text(never.answer('k', () => ++computed))).toBe('6')
  })

  test('misses at the same time share one computation; a failure is not kept', async () => {
    let computed = 0
    const cache = new AnswerCache(() => 0, 0)
    const slow = async () => {
      computed++
      await Bun.sleep(20)
      return { computed }
    }
    const answers = await Promise.all([cache.answer('k', slow), cache.answer('k', slow), cache.answer('k', slow)])
    expect(computed).toBe(1)
    expect(await Promise.all(answers.map((answer) => answer.text()))).toEqual(Array(3).fill('{"computed":1}'))

    let fail = true
    const flaky = () => {
      if (fail) throw new Error('not yet')
      return 'ok'
    }
    const kept = new AnswerCache(() => 0, 60_000)
    await expect(kept.answer('k', flaky)).rejects.toThrow('not yet')
    fail = false
    expect(await text(kept.answer('k', flaky))).toBe('"ok"')
  })

  test('the bytes kept are bounded: the oldest answers go first, one too large is not kept', async () => {
    let computed = 0
    const cache = new AnswerCache(() => 0, 60_000, 100)
    const of = (size: number) => () => (computed++, 'x'.repeat(size))
    await text(cache.answer('a', of(40)))
    await text(cache.answer('b', of(40)))
    await text(cache.answer('c', of(40))) // 126 bytes with the quotes: 'a' goes
    expect(computed).toBe(3)
    await text(cache.answer('c', of(40)))
    await text(cache.answer('b', of(40)))
    expect(computed).toBe(3)
    await text(cache.answer('a', of(40)))
    expect(computed).toBe(4)
    await text(cache.answer('big', of(200)))
    await text(cache.answer('big', of(200)))
    expect(computed).toBe(6)
  })
})
