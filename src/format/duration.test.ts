import { describe, expect, test } from 'bun:test'
import { durationInWords, formatDuration, largestUnit, roughDuration } from './duration.ts'

describe('durations', () => {
  test('hours, minutes and seconds, leaving out the zero parts', () => {
    expect(formatDuration(86399)).toBe('23h 59m 59s')
    expect(formatDuration(86400)).toBe('1d')
    expect(formatDuration(3600)).toBe('1h')
    expect(formatDuration(61)).toBe('1m 1s')
    expect(formatDuration(0)).toBe('0s')
    expect(formatDuration(-5)).toBe('0s')
  })

  test('in words: hours (a day counted in them) and minutes, seconds only under a minute', () => {
    expect(durationInWords(86400)).toBe('24 hours')
    expect(durationInWords(3600 + 60 + 5)).toBe('1 hour 1 minute')
    expect(durationInWords(7200 + 300)).toBe('2 hours 5 minutes')
    expect(durationInWords(119.9)).toBe('1 minute')
    expect(durationInWords(1)).toBe('1 second')
    expect(durationInWords(-3)).toBe('0 seconds')
  })

  test('the largest unit only, cut down', () => {
    expect(largestUnit(59)).toBe('59 s')
    expect(largestUnit(60)).toBe('1 min')
    expect(largestUnit(3599)).toBe('59 min')
    expect(largestUnit(3600 * 23 + 3599)).toBe('23 h')
    expect(largestUnit(86_400 * 400)).toBe('400 d')
  })

  test('an estimate, rounded to the unit it is read in', () => {
    expect(roughDuration(89)).toBe('89 s')
    expect(roughDuration(90)).toBe('2 min')
    expect(roughDuration(5399)).toBe('90 min')
    expect(roughDuration(5400)).toBe('1.5 h')
  })
})
