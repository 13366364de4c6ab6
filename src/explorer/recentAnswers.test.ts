import { expect, test } from 'bun:test'
import { RecentAnswers } from './recentAnswers.ts'

test('an answer is fresh for the age each read accepts', () => {
  let now = 1000
  const answers = new RecentAnswers<string | null>(() => now)
  answers.keep('a', null)
  expect(answers.fresh('a', 3000)).toMatchObject({ value: null })
  now += 3000
  expect(answers.fresh('a', 3000)).toMatchObject({ value: null })
  expect(answers.fresh('a', 2999)).toBeUndefined()
  now += 60_000
  expect(answers.fresh('a', 60_000)).toBeUndefined()
  expect(answers.fresh('b', 60_000)).toBeUndefined()
})

test('past 10,000 keys the least recently used go, not everything', () => {
  const now = 1000
  const answers = new RecentAnswers<number>(() => now)
  for (let n = 0; n < 10_000; n++) answers.keep(`k${n}`, n)
  // Read again: the most recently used, so the next key pushes out k1, not k0.
  expect(answers.fresh('k0', 1)).toMatchObject({ value: 0 })
  answers.keep('k10000', 10_000)
  expect(answers.fresh('k0', 1)).toMatchObject({ value: 0 })
  expect(answers.fresh('k9999', 1)).toMatchObject({ value: 9999 })
  expect(answers.fresh('k10000', 1)).toMatchObject({ value: 10_000 })
  expect(answers.fresh('k1', 1)).toBeUndefined()
})
