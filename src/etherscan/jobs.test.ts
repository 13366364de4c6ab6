import { describe, expect, test } from 'bun:test'
import { createJobs } from './jobs.ts'

const A = '0x00000000000000000000000000000000000000aA'
const B = '0x00000000000000000000000000000000000000bB'
const pass = { state: 'pass', match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match', matchId: 1, verifiedAt: 5, message: 'Pass - Verified' } as const

describe('the job list', () => {
  test('a job starts pending, ends once with its time, and a failure gets an error id of its own', () => {
    let now = 1_000
    const jobs = createJobs(10, () => now)
    const job = jobs.start('contract', A)
    expect(job).toMatchObject({ kind: 'contract', address: A, startedAt: 1_000, finishedAt: null, outcome: null })
    expect(jobs.get(job.id)).toBe(job)
    expect(jobs.pendingCount()).toBe(1)
    now = 2_500
    jobs.finish(job, { state: 'fail', code: 'no_match', message: 'no' })
    jobs.finish(job, pass)
    expect(job.finishedAt).toBe(2_500)
    expect(job.outcome).toMatchObject({ state: 'fail', code: 'no_match', message: 'no' })
    expect((job.outcome as { errorId: string }).errorId).toMatch(/^[0-9a-f-]{36}$/)
    expect(jobs.pendingCount()).toBe(0)
    expect(jobs.get('nobody')).toBeNull()
  })

  test('a pending job of an address is found by kind, whatever the case of the address', () => {
    const jobs = createJobs()
    const job = jobs.start('contract', A)
    expect(jobs.pendingFor('contract', A.toLowerCase())).toBe(job)
    expect(jobs.pendingFor('proxy', A)).toBeNull()
    expect(jobs.pendingFor('contract', B)).toBeNull()
    jobs.finish(job, pass)
    expect(jobs.pendingFor('contract', A)).toBeNull()
  })

  test('past its bound the oldest finished jobs are forgotten, never a pending one', () => {
    const jobs = createJobs(3)
    const pending = jobs.start('contract', A)
    const finished = [jobs.start('contract', B), jobs.start('contract', B)]
    for (const job of finished) jobs.finish(job, pass)
    const newest = jobs.start('proxy', B)
    expect(jobs.size()).toBe(3)
    expect(jobs.get(finished[0]!.id)).toBeNull()
    expect(jobs.get(pending.id)).toBe(pending)
    expect(jobs.get(finished[1]!.id)).toBe(finished[1]!)
    expect(jobs.get(newest.id)).toBe(newest)
    // Once only pending jobs are left, the list grows past its bound rather than drop one.
    const more = [jobs.start('contract', A), jobs.start('contract', A)]
    expect(jobs.get(finished[1]!.id)).toBeNull()
    expect(jobs.size()).toBe(4)
    for (const job of [pending, newest, ...more]) expect(jobs.get(job.id)).toBe(job)
  })
})
