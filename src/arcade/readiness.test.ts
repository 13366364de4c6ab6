import { expect, test } from 'bun:test'
import { readiness } from './readiness.ts'

const state = { connected: true, head: 7, appliedAt: 1000, timestampMs: 1000 }

test('not ready while the node socket is down, whatever was applied', () => {
  expect(readiness({ ...state, connected: false }, 5000, 1000)).toEqual({ ready: false, reason: 'the node socket is down' })
})

test('not ready before the first mini-block', () => {
  expect(readiness({ connected: true, head: null, appliedAt: null, timestampMs: null }, 5000, 1000)).toEqual({ ready: false, reason: 'no mini-block applied yet' })
})

test('ready up to five seconds after the last mini-block, not ready after', () => {
  expect(readiness(state, 5000, 6000)).toEqual({ ready: true, head: 7, ageMs: 5000 })
  expect(readiness(state, 5000, 6001)).toEqual({ ready: false, reason: 'the last mini-block is 5001 ms old (limit 5000 ms)' })
})

test('an old mini-block applied just now is not fresh', () => {
  expect(readiness({ ...state, appliedAt: 60_000, timestampMs: 1000 }, 5000, 60_000)).toMatchObject({ ready: false })
})

test('a mini-block stamped in the future that nothing followed goes stale by the time it was applied', () => {
  expect(readiness({ ...state, appliedAt: 1000, timestampMs: 90_000 }, 5000, 3000)).toEqual({ ready: true, head: 7, ageMs: 2000 })
  expect(readiness({ ...state, appliedAt: 1000, timestampMs: 90_000 }, 5000, 7000)).toMatchObject({ ready: false })
})
