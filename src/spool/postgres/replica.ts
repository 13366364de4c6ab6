import { DatabaseError } from './problems.ts'
import type { Queryable } from './lease.ts'

// The api role's read replica (docs/operating.md): a streaming replica of the primary, which
// replays the primary's write-ahead log some moments behind it. The instance listens for new
// heads on the primary (PostgreSQL refuses LISTEN on a standby) and reads everything else from
// the replica; so that an answer never shows less than the head it was told of, each new head
// is taken up only once the replica has replayed the log as far as the primary had written it
// when the head was told. Before then the instance answers from the head it had.

/** How often a replica behind the primary is asked again. */
const POLL_MS = 10

const first = (answer: unknown) => (answer as Array<Record<string, unknown>>)[0]!

export type ReplicaWait = {
  /** Resolves once the replica holds all the primary had committed when it was called. */
  reach: () => Promise<void>
  /** How long the replica has been behind a head it was told of; 0 while it holds all it was told. */
  behindMs: () => number
}

/**
 * Checks that `replica` replicates `primary` (the same cluster, by its system identifier, and
 * in recovery, that is replaying); a replica of another cluster, or a database that is not a
 * replica, is refused in one line.
 */
export async function checkReplica(primary: Queryable, replica: Queryable, where: { primary: string; replica: string }): Promise<void> {
  const system = 'SELECT system_identifier::text AS id, pg_is_in_recovery() AS replaying FROM pg_control_system()'
  const [ofPrimary, ofReplica] = await Promise.all([primary.unsafe(system).then(first), replica.unsafe(system).then(first)])
  if (ofReplica.id !== ofPrimary.id) {
    throw new DatabaseError(`the database at ${where.replica} is not a replica of ${where.primary} (another cluster): name a streaming replica of database.url in database.replicaUrl, or leave it empty`)
  }
  if (!ofReplica.replaying) {
    throw new DatabaseError(`the database at ${where.replica} is not replaying ${where.primary}'s log (it is the primary, or was promoted): leave database.replicaUrl empty to read the primary, or name a standby`)
  }
}

/** How long a replica may be behind before it is said in the log (once, until it catches up). */
export const LATE_MS = 30_000

/**
 * Waits, each time it is asked, for `replica` to replay the log of `primary` as far as it had
 * been written then; `late` is told once when it has been behind for LATE_MS.
 */
export function replicaWait(primary: Queryable, replica: Queryable, late: (behindMs: number) => void = () => {}): ReplicaWait {
  let behindSince: number | null = null
  let told = false
  const behindMs = () => (behindSince === null ? 0 : Math.round(performance.now() - behindSince))
  return {
    reach: async () => {
      const { lsn } = first(await primary.unsafe('SELECT pg_current_wal_lsn()::text AS lsn'))
      behindSince ??= performance.now()
      // A server that never replayed (started as a primary) has no replay position: it holds what it holds. A standby
      // promoted meanwhile keeps its last one and stays behind: /health and the log say so.
      while (!first(await replica.unsafe('SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, true) AS reached', [lsn])).reached) {
        if (!told && behindMs() >= LATE_MS) {
          told = true
          late(behindMs())
        }
        await Bun.sleep(POLL_MS)
      }
      behindSince = null
      told = false
    },
    behindMs,
  }
}
