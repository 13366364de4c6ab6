import { describe, expect, test } from 'bun:test'
import { appendFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FaucetUnavailableError, QuotaExceededError } from '../errors.ts'
import { QuotaBook, type QuotaLimits } from './book.ts'

const LIMITS: QuotaLimits = { perClient: 5, perAddress: 2, global: 1000, allTime: 100_000 }
const NOON = Date.parse('2026-03-10T12:00:00Z')
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`

function setup(options: { limits?: Partial<QuotaLimits>; maxBytes?: number; maxAgeMs?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'faucet-quota-'))
  const clock = { now: NOON }
  const open = () =>
    QuotaBook.open({
      dir,
      limits: { ...LIMITS, ...options.limits },
      maxBytes: options.maxBytes ?? 1 << 20,
      maxAgeMs: options.maxAgeMs ?? 86_400_000,
      clock: () => clock.now,
    })
  return { dir, clock, open }
}

function quotaOf(action: () => unknown): string | null {
  try {
    action()
    return null
  } catch (error) {
    expect(error).toBeInstanceOf(QuotaExceededError)
    return (error as QuotaExceededError).quota
  }
}

describe('quotas', () => {
  test('a client gets five drips a day, then 429 naming the client quota', () => {
    const book = setup().open()
    for (let n = 1; n <= 5; n++) book.reserve('203.0.113.1', address(n))
    expect(quotaOf(() => book.reserve('203.0.113.1', address(6)))).toBe('client')
    expect(() => book.reserve('203.0.113.1', address(6))).toThrow('at most 5 drips a day per client')
    book.reserve('203.0.113.2', address(6))
  })

  test('an address gets two drips a day, whatever the case it is written in', () => {
    const book = setup().open()
    book.reserve('a', address(0xabc))
    book.reserve('b', address(0xabc).toUpperCase().replace('0X', '0x'))
    expect(quotaOf(() => book.reserve('c', address(0xabc)))).toBe('address')
  })

  test('the global and all-time quotas', () => {
    const global = setup({ limits: { global: 3 } }).open()
    for (let n = 1; n <= 3; n++) global.reserve(`client-${n}`, address(n))
    expect(quotaOf(() => global.reserve('client-4', address(4)))).toBe('global')

    const budget = setup({ limits: { allTime: 2 } }).open()
    const first = budget.reserve('a', address(1))
    budget.commit(first, '0x01')
    budget.reserve('b', address(2))
    // A reservation in flight holds its part of the budget until it is settled.
    expect(quotaOf(() => budget.reserve('c', address(3)))).toBe('allTime')
  })

  test('a rollback gives every slot back; after a commit it also leaves the all-time total', () => {
    const book = setup().open()
    const reservations = [1, 2, 3, 4, 5].map((n) => book.reserve('client', address(n)))
    book.rollback(reservations[0]!)
    book.rollback(reservations[0]!) // twice is once
    book.commit(reservations[1]!, '0x02')
    book.rollback(reservations[1]!)
    expect(book.usage()).toMatchObject({ global: 3, clients: { client: 3 }, allTime: 0, open: 3 })
    book.reserve('client', address(6))
    book.reserve('client', address(7))
    expect(quotaOf(() => book.reserve('client', address(8)))).toBe('client')
  })

  test('the daily quotas reset at 00:00 UTC; the all-time total does not', () => {
    const { clock, open } = setup()
    const book = open()
    clock.now = Date.parse('2026-03-10T23:59:59Z')
    for (let n = 1; n <= 5; n++) book.commit(book.reserve('client', address(n)), `0x${n}`)
    expect(quotaOf(() => book.reserve('client', address(9)))).toBe('client')
    clock.now = Date.parse('2026-03-11T00:00:00Z')
    book.reserve('client', address(9))
    expect(book.usage()).toMatchObject({ day: '2026-03-11', global: 1, clients: { client: 1 }, allTime: 5 })
  })

  test('a 429 says when the daily quotas reset', () => {
    const book = setup({ limits: { perClient: 1 } }).open()
    book.reserve('client', address(1))
    const error = (() => {
      try {
        book.reserve('client', address(2))
      } catch (caught) {
        return caught as QuotaExceededError
      }
    })()
    expect(error?.extra).toEqual({ quota: 'client', resetsIn: 12 * 3600 })
  })
})

describe('the journal', () => {
  test('a restart rebuilds the counters from the file', () => {
    const { open } = setup()
    const book = open()
    book.commit(book.reserve('a', address(1)), '0x01')
    book.commit(book.reserve('a', address(2)), '0x02')
    book.rollback(book.reserve('b', address(3)))
    book.close()
    const again = open()
    expect(again.recovery).toMatchObject({ replayed: 6, skipped: 0, orphans: 0 })
    expect(again.usage()).toMatchObject({ global: 2, clients: { a: 2 }, addresses: { [address(1)]: 1, [address(2)]: 1 }, allTime: 2, open: 0 })
  })

  test('the next day, a restart keeps only the all-time total', () => {
    const { clock, open } = setup()
    const book = open()
    book.commit(book.reserve('a', address(1)), '0x01')
    book.close()
    clock.now += 86_400_000
    expect(open().usage()).toMatchObject({ day: '2026-03-11', global: 0, clients: {}, allTime: 1 })
  })

  test('a reservation open when the process died counts as spent', () => {
    const { open } = setup()
    const book = open()
    book.reserve('a', address(1))
    book.close()
    const again = open()
    expect(again.recovery.orphans).toBe(1)
    expect(again.usage()).toMatchObject({ global: 1, clients: { a: 1 }, allTime: 1, open: 0 })
  })

  test('a line torn by a crash is skipped, and never appended to', () => {
    const { dir, open } = setup()
    const book = open()
    book.commit(book.reserve('a', address(1)), '0x01')
    const torn = book.journalPath
    book.close()
    appendFileSync(torn, '{"type":"commit","id":"x')
    const again = open()
    expect(again.recovery).toMatchObject({ skipped: 1, replayed: 2 })
    expect(again.journalPath).not.toBe(torn)
    again.commit(again.reserve('b', address(2)), '0x02')
    again.close()
    expect(open().usage()).toMatchObject({ allTime: 2, global: 2 })
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  test('rotation by size: each file starts with a checkpoint, old files go, nothing is forgotten', () => {
    const { dir, open } = setup({ maxBytes: 600, limits: { perClient: 1000, perAddress: 1000 } })
    const book = open()
    const inFlight = book.reserve('a', address(999))
    for (let n = 1; n <= 40; n++) book.commit(book.reserve('a', address(n)), `0x${n}`)
    // Settled in a later file than the one it was reserved in.
    book.commit(inFlight, '0xff')
    book.rollback(book.reserve('b', address(1000)))
    const files = readdirSync(dir).sort()
    expect(files.length).toBe(3)
    for (const name of files) expect(JSON.parse(readFileSync(join(dir, name), 'utf8').split('\n')[0]!).type).toBe('checkpoint')
    book.close()
    const again = open()
    expect(again.recovery.orphans).toBe(0)
    expect(again.usage()).toMatchObject({ global: 41, allTime: 41, clients: { a: 41 }, open: 0 })
  })

  test('a reservation that cannot be written down is not given out', () => {
    const book = setup().open()
    book.reserve('a', address(1))
    book.close()
    expect(() => book.reserve('a', address(2))).toThrow(FaucetUnavailableError)
    expect(() => book.reserve('a', address(2))).toThrow('faucet unavailable: the quota journal cannot be written')
    expect(book.usage()).toMatchObject({ global: 1, clients: { a: 1 }, open: 1 })
  })

  test('rotation by age', () => {
    const { dir, clock, open } = setup({ maxAgeMs: 3_600_000 })
    const book = open()
    const first = book.journalPath
    book.reserve('a', address(1))
    expect(book.journalPath).toBe(first)
    clock.now += 3_600_000
    book.reserve('a', address(2))
    expect(book.journalPath).not.toBe(first)
    expect(readdirSync(dir).length).toBe(2)
  })
})
