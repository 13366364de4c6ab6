import { expect, test } from 'bun:test'
import { percentile } from './percentile.ts'

test('the sample at the quantile, the last one at the top, NaN for none', () => {
  const sorted = Array.from({ length: 100 }, (_, index) => index + 1)
  expect(percentile(sorted, 0.5)).toBe(51)
  expect(percentile(sorted, 0.99)).toBe(100)
  expect(percentile(sorted, 1)).toBe(100)
  expect(percentile([7], 0.99)).toBe(7)
  expect(percentile([], 0.5)).toBeNaN()
})
