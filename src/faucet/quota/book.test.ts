import { describe, expect, test } from 'bun:test'
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

const journalFiles = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('journal-')).sort()

/** A drip that went all the way: reserved, signed (committed) and seen paid on the chain (confirmed). */
function paid(book: QuotaBook, client: string, to: string, hash: string) {
  const reservation = book.reserve(client, to)
  book.commit(reservation, hash)
  book.confirm(reservation)
  return reservation
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
    expect(error?.details).toEqual({ quota: 'client', resetsIn: 12 * 3600 })
  })
})

describe('the journal', () => {
  test('a restart rebuilds the counters from the file', () => {
    const { open } = setup()
    const book = open()
    paid(book, 'a', address(1), '0x01')
    paid(book, 'a', address(2), '0x02')
    book.rollback(book.reserve('b', address(3)))
    book.close()
    const again = open()
    expect(again.recovery).toMatchObject({ replayed: 8, skipped: 0, released: 0, spent: 0, unsettled: 0, missingFiles: 0 })
    expect(again.usage()).toMatchObject({ global: 2, clients: { a: 2 }, addresses: { [address(1)]: 1, [address(2)]: 1 }, allTime: 2, open: 0 })
    expect(again.unsettled()).toEqual([])
  })

  test('the next day, a restart keeps only the all-time total', () => {
    const { clock, open } = setup()
    const book = open()
    paid(book, 'a', address(1), '0x01')
    book.close()
    clock.now += 86_400_000
    expect(open().usage()).toMatchObject({ day: '2026-03-11', global: 0, clients: {}, allTime: 1 })
  })

  test('a reservation the process died with before signing sent nothing: its slots are given back', () => {
    const { open } = setup()
    const book = open()
    book.reserve('a', address(1))
    book.close()
    const again = open()
    expect(again.recovery).toMatchObject({ released: 1, unsettled: 0 })
    expect(again.usage()).toMatchObject({ global: 0, clients: {}, allTime: 0, open: 0 })
    // The release is written down: a second restart finds nothing to release.
    again.close()
    expect(open().recovery).toMatchObject({ released: 0, unsettled: 0 })
  })

  test('a signed one stays counted and waits for the chain: confirmed it stays, rolled back it goes', () => {
    const { open } = setup()
    const book = open()
    const landed = book.reserve('a', address(1))
    book.commit(landed, '0xaa')
    const dropped = book.reserve('b', address(2))
    book.commit(dropped, '0xbb')
    book.close()
    const again = open()
    expect(again.recovery).toMatchObject({ released: 0, unsettled: 2 })
    expect(again.usage()).toMatchObject({ global: 2, allTime: 2, open: 2 })
    const unsettled = again.unsettled()
    expect(unsettled.map(({ hash, reservation }) => [hash, reservation.client, reservation.address, reservation.state])).toEqual([
      ['0xaa', 'a', address(1), 'committed'],
      ['0xbb', 'b', address(2), 'committed'],
    ])
    again.confirm(unsettled[0]!.reservation)
    again.rollback(unsettled[1]!.reservation)
    again.rollback(unsettled[0]!.reservation) // a confirmed drip is never rolled back
    again.close()
    expect(open().usage()).toMatchObject({ global: 1, clients: { a: 1 }, allTime: 1, open: 0 })
  })

  test('a journal written before version 2: its open reservations count as spent, its signed ones are settled', () => {
    const { dir, open } = setup()
    const checkpoint = { type: 'checkpoint', version: 1, at: new Date(NOON).toISOString(), day: '2026-03-10', global: 3, clients: { a: 3 }, addresses: { [address(1)]: 3 }, allTime: 1, open: ['old-1'] }
    const lines = [
      checkpoint,
      { type: 'reserve', id: 'old-2', at: new Date(NOON).toISOString(), day: '2026-03-10', client: 'a', address: address(1) },
      { type: 'reserve', id: 'old-3', at: new Date(NOON).toISOString(), day: '2026-03-10', client: 'a', address: address(1) },
      { type: 'commit', id: 'old-3', hash: '0x03' },
    ]
    writeFileSync(join(dir, 'journal-00000001.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`)
    const book = open()
    expect(book.recovery).toMatchObject({ spent: 2, released: 0, unsettled: 1 })
    expect(book.usage()).toMatchObject({ global: 5, allTime: 4, open: 1 })
    expect(book.unsettled().map(({ hash }) => hash)).toEqual(['0x03'])
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
    for (let n = 1; n <= 40; n++) paid(book, 'a', address(n), `0x${n}`)
    // Settled in a later file than the one it was reserved in.
    book.commit(inFlight, '0xff')
    book.confirm(inFlight)
    book.rollback(book.reserve('b', address(1000)))
    const files = journalFiles(dir)
    expect(files.length).toBe(3)
    for (const name of files) expect(JSON.parse(readFileSync(join(dir, name), 'utf8').split('\n')[0]!).type).toBe('checkpoint')
    book.close()
    const again = open()
    expect(again.recovery).toMatchObject({ released: 0, unsettled: 0 })
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
    expect(journalFiles(dir).length).toBe(2)
  })

  test('a newest file that is gone is noticed, and its number is not used again', () => {
    const { open } = setup()
    const first = open()
    for (let n = 1; n <= 5; n++) paid(first, `client-${n}`, address(n), `0x${n}`)
    first.close()
    const second = open()
    for (let n = 6; n <= 8; n++) paid(second, `client-${n}`, address(n), `0x${n}`)
    const newest = second.journalPath
    second.close()
    rmSync(newest)
    const again = open()
    expect(again.recovery.missingFiles).toBe(1)
    // The journal alone now forgets the last three; the next file follows the lost one.
    expect(again.usage().allTime).toBe(5)
    expect(again.journalPath > newest).toBe(true)
    again.close()
    expect(open().recovery.missingFiles).toBe(0)
  })

  test('the counters rise to what the chain paid, never fall, and keep it across a restart', () => {
    const { open } = setup()
    const book = open()
    paid(book, 'a', address(1), '0x01')
    const chain = { day: '2026-03-10', global: 3, addresses: new Map([[address(1), 1], [address(2), 2]]), allTime: 7 }
    expect(book.raiseTo(chain)).toBe(true)
    expect(book.usage()).toMatchObject({ global: 3, addresses: { [address(1)]: 1, [address(2)]: 2 }, allTime: 7 })
    expect(book.raiseTo({ day: '2026-03-10', global: 0, addresses: new Map(), allTime: 0 })).toBe(false)
    // The address quota counts the chain's drips too.
    expect(quotaOf(() => book.reserve('b', address(2)))).toBe('address')
    book.close()
    expect(open().usage()).toMatchObject({ global: 3, allTime: 7 })
  })
})
