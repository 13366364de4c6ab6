import { expect, test } from 'bun:test'
import { OneAtATime } from './oneAtATime.ts'

test('tasks of one key run in turn, other keys side by side, and a failure does not block the next', async () => {
  const queue = new OneAtATime()
  const events: string[] = []
  const task = (name: string, ms: number, fail = false) => async () => {
    events.push(`start ${name}`)
    await Bun.sleep(ms)
    events.push(`end ${name}`)
    if (fail) throw new Error(name)
    return name
  }
  const results = await Promise.allSettled([queue.run('a', task('a1', 30, true)), queue.run('a', task('a2', 5)), queue.run('b', task('b1', 5))])
  expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled'])
  expect(events.indexOf('start a2')).toBeGreaterThan(events.indexOf('end a1'))
  expect(events.indexOf('start b1')).toBeLessThan(events.indexOf('end a1'))
  // A turn of the event loop: a key is forgotten once its last task's promise has settled.
  await Bun.sleep(0)
  expect(queue.size).toBe(0)
})
