import type { Address } from 'viem'
import type { MatchKind } from '../spool/verified.ts'

/** A verification job's result once it ends. */
export type JobOutcome =
  | { state: 'pass'; match: MatchKind; creationMatch: MatchKind | null; runtimeMatch: MatchKind | null; matchId: number; verifiedAt: number; message: string }
  | { state: 'fail'; code: string; message: string; errorId: string }

/**
 * One verification asked of either API (Etherscan's guid, Sourcify's verificationId): what it is
 * about and how far it got. `kind` says which Etherscan action checks it (`checkverifystatus` or
 * `checkproxyverification`); Sourcify sees only contract jobs.
 */
export type Job = {
  id: string
  kind: 'contract' | 'proxy'
  address: Address
  /** Unix milliseconds. */
  startedAt: number
  finishedAt: number | null
  outcome: JobOutcome | null
}

/** The most jobs kept; the oldest finished ones go first, and a pending job is never dropped. */
export const MAX_JOBS = 10_000

/**
 * The job list both APIs share: guid → state, in memory. Bounded: past `limit` the oldest
 * finished jobs are forgotten (their guids then answer as unknown). A restart forgets every job,
 * pending ones included; what a finished job verified is in the spool and stays.
 */
export function createJobs(limit = MAX_JOBS, now: () => number = Date.now) {
  const jobs = new Map<string, Job>()
  let pending = 0
  const trim = () => {
    if (jobs.size <= limit) return
    for (const [id, job] of jobs) {
      if (jobs.size <= limit) break
      if (job.outcome) jobs.delete(id)
    }
  }
  return {
    /** A new pending job. */
    start(kind: Job['kind'], address: Address): Job {
      const job: Job = { id: crypto.randomUUID(), kind, address, startedAt: now(), finishedAt: null, outcome: null }
      jobs.set(job.id, job)
      pending++
      trim()
      return job
    },
    /** Ends a pending job; a job ends once. */
    finish(job: Job, outcome: JobOutcome | Omit<Extract<JobOutcome, { state: 'fail' }>, 'errorId'>): void {
      if (job.outcome) return
      job.outcome = outcome.state === 'fail' ? { ...outcome, errorId: crypto.randomUUID() } : outcome
      job.finishedAt = now()
      pending--
      trim()
    },
    get: (id: string): Job | null => jobs.get(id) ?? null,
    /** The pending job of `address`, if one is running. */
    pendingFor(kind: Job['kind'], address: string): Job | null {
      const key = address.toLowerCase()
      for (const job of jobs.values()) if (!job.outcome && job.kind === kind && job.address.toLowerCase() === key) return job
      return null
    },
    pendingCount: () => pending,
    size: () => jobs.size,
  }
}

export type Jobs = ReturnType<typeof createJobs>
