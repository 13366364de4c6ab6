import { expect, test } from 'bun:test'
import { QUEUE_FULL_MESSAGE, VerificationQueueFullError } from './errors.ts'
import { JobQueue } from './queue.ts'

test('at most `concurrency` run at once, `capacity` wait, and the next is refused at once', async () => {
  const queue = new JobQueue(2, 1)
  const releases: Array<() => void> = []
  let running = 0
  let most = 0
  const job = () => {
    const place = queue.admit()
    return queue
      .inSlot(async () => {
        running++
        most = Math.max(most, running)
        await new Promise<void>((resolve) => releases.push(resolve))
        running--
      })
      .finally(place.leave)
  }
  const jobs = [job(), job(), job()]
  expect(queue.full).toBe(true)
  expect(() => queue.admit()).toThrow(new VerificationQueueFullError())
  expect(QUEUE_FULL_MESSAGE).toBe('the verification queue is full, try again')
  await Bun.sleep(5)
  expect(running).toBe(2)
  expect(queue.waiting).toBe(1)
  while (releases.length > 0 || running > 0) {
    releases.shift()?.()
    await Bun.sleep(5)
  }
  await Promise.all(jobs)
  expect(most).toBe(2)
  expect(queue.waiting).toBe(0)
  expect(queue.full).toBe(false)
})

test('a failed job gives its slot to the next', async () => {
  const queue = new JobQueue(1, 4)
  const order: string[] = []
  const failing = queue.inSlot(async () => {
    order.push('a')
    throw new Error('compile failed')
  })
  const next = queue.inSlot(async () => {
    order.push('b')
    return 'b done'
  })
  await expect(failing).rejects.toThrow('compile failed')
  expect(await next).toBe('b done')
  expect(order).toEqual(['a', 'b'])
})
