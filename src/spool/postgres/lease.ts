import { hostname } from 'node:os'
import { StackError } from '../../errors.ts'

// Who may write, when several instances share one PostgreSQL database (docs/operating.md): a
// lease row per role that has one writer (the indexer, the faucet), held by a heartbeat and
// numbered by an epoch, the fencing token. Taking over a lapsed lease adds one to its epoch, and
// every write batch checks, inside its own transaction, that the epoch it holds is still the
// row's (a share lock on the row, so a takeover waits for a batch that is running and the batch
// after it sees the new epoch). An instance that was paused (SIGSTOP), cut off or slow past its
// lease therefore writes nothing once another has taken over, whatever it believes. Time is the
// database server's (now()), never one machine's clock against another's. A session advisory
// lock alone would not do: it lasts as long as a dead host's connection does.

/** The smallest thing a lease needs of a client: a statement with parameters (Bun.sql and the `postgres` package both have it). */
export type Queryable = { unsafe: (query: string, parameters?: unknown[]) => Promise<unknown> }

/** The lease of the one instance that writes chain data (the indexer), and of the one that runs the faucet. */
export const INDEXER_LEASE = 'indexer'
export const FAUCET_LEASE = 'faucet'

/** This instance's place in the indexer's lease, as the writer reports it: standing by, or writing at `epoch`. */
export type IndexerLease = { holder: string; epoch: number | null; standby: boolean }

/** Who holds a lease, as /health and `stack status` say it. */
export type LeaseHolder = { holder: string; epoch: number; heartbeatAgeMs: number; acquiredAt: string }

/** The lease a writer lost: another took it over (or it was released), so this writer must write nothing more. */
export class FencedError extends StackError {
  override name = 'FencedError'
}

/** An instance's name in the lease row: its host, its process and a random part (two processes on one host are two holders). */
export function instanceName(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`
}

const rows = (answer: unknown) => answer as Array<Record<string, unknown>>

/** The lease table, in `schema` (a name the config checked). */
export function leaseTable(schema: string): string {
  return `"${schema}".stack_leases`
}

/**
 * Makes the schema and its lease table when they are not there yet: instances that start
 * together take turns (a transaction-scoped advisory lock), since two CREATE ... IF NOT EXISTS at
 * once may still collide.
 */
export async function prepareLease(db: Queryable & { begin: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> }, schema: string): Promise<void> {
  await db.begin(async (tx) => {
    await tx.unsafe('SELECT pg_advisory_xact_lock(hashtext($1))', [`stack-migrations:${schema}`])
    await tx.unsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
    await createLeaseTable(tx, schema)
  })
}

export async function createLeaseTable(db: Queryable, schema: string): Promise<void> {
  await db.unsafe(`CREATE TABLE IF NOT EXISTS ${leaseTable(schema)} (
    name text PRIMARY KEY,
    epoch bigint NOT NULL,
    holder text NOT NULL,
    heartbeat_at timestamptz NOT NULL,
    acquired_at timestamptz NOT NULL
  )`)
}

/**
 * Takes the lease `name` for `holder` if nobody holds it or its last heartbeat is older than
 * `ttlMs` by the server's clock: its new epoch, or null while another holds it.
 */
export async function tryAcquire(db: Queryable, schema: string, name: string, holder: string, ttlMs: number): Promise<number | null> {
  const table = leaseTable(schema)
  const taken = rows(
    await db.unsafe(
      `INSERT INTO ${table} AS lease (name, epoch, holder, heartbeat_at, acquired_at) VALUES ($1, 1, $2, now(), now())
       ON CONFLICT (name) DO UPDATE SET epoch = lease.epoch + 1, holder = excluded.holder, heartbeat_at = now(), acquired_at = now()
       WHERE lease.heartbeat_at < now() - make_interval(secs => $3::double precision / 1000)
       RETURNING epoch`,
      [name, holder, ttlMs],
    ),
  )
  return taken.length === 1 ? Number(taken[0]!.epoch) : null
}

/** Renews the lease held at `epoch`: false once it is no longer this holder's (taken over or released). */
export async function renew(db: Queryable, schema: string, name: string, epoch: number): Promise<boolean> {
  const renewed = rows(await db.unsafe(`UPDATE ${leaseTable(schema)} SET heartbeat_at = now() WHERE name = $1 AND epoch = $2 RETURNING epoch`, [name, epoch]))
  return renewed.length === 1
}

/** Gives the lease up at once (a clean stop), so that a standby need not wait for it to lapse. */
export async function release(db: Queryable, schema: string, name: string, epoch: number): Promise<void> {
  await db.unsafe(`UPDATE ${leaseTable(schema)} SET heartbeat_at = '-infinity' WHERE name = $1 AND epoch = $2`, [name, epoch])
}

/**
 * Inside a write batch's transaction: throws FencedError unless `epoch` is still the lease's.
 * The row stays share-locked to the transaction's end, so a takeover waits for the batch.
 */
export async function checkFence(tx: Queryable, schema: string, name: string, epoch: number): Promise<void> {
  const held = rows(await tx.unsafe(`SELECT epoch FROM ${leaseTable(schema)} WHERE name = $1 FOR SHARE`, [name]))
  const current = held.length === 1 ? Number(held[0]!.epoch) : null
  if (current !== epoch) {
    throw new FencedError(`the ${name} lease of epoch ${epoch} is no longer held (${current === null ? 'it is gone' : `epoch ${current} holds it now`}): this instance writes nothing more`)
  }
}

/** Who holds `name`, by the server's clock; null when nobody ever took it or it was released. */
export async function leaseHolder(db: Queryable, schema: string, name: string): Promise<LeaseHolder | null> {
  const found = rows(
    await db.unsafe(
      `SELECT holder, epoch, (extract(epoch FROM now() - heartbeat_at) * 1000)::double precision AS age, acquired_at FROM ${leaseTable(schema)} WHERE name = $1 AND heartbeat_at > '-infinity'`,
      [name],
    ),
  )
  if (found.length === 0) return null
  const row = found[0]!
  return { holder: String(row.holder), epoch: Number(row.epoch), heartbeatAgeMs: Math.round(Number(row.age)), acquiredAt: new Date(row.acquired_at as string | Date).toISOString() }
}

/** A holder renews its lease every second; a lease not renewed for five may be taken over (unless told: database.leaseMs). */
export const LEASE_HEARTBEAT_MS = 1_000
export const LEASE_TTL_MS = 5_000
/** A holder renews its lease this many times in the time after which it may be taken over. */
export const HEARTBEATS_PER_LEASE = 5

export type LeaseOptions = {
  db: Queryable
  schema: string
  name: string
  holder?: string
  /** How often the holder renews, and a standby tries to take it over. */
  heartbeatMs?: number
  /** How long after its last renewal a lease may be taken over. */
  ttlMs?: number
  /** Called once when a held lease is lost (renewal refused or failing past the ttl); the holder must stop writing. */
  onLost?: (error: FencedError) => void
}

export type Lease = {
  readonly holder: string
  /** The epoch held, or null while standing by. */
  epoch: () => number | null
  /** Resolves with the epoch once held: at once if free, else when the holder releases it or it lapses. Rejects if stopped first. */
  acquired: Promise<number>
  /** Stops renewing (or waiting) and releases a held lease. */
  stop: () => Promise<void>
}

/**
 * Holds the lease `name`: tries at once, then every heartbeat as a standby until it is taken,
 * then renews it every heartbeat. A renewal the server refuses, or renewals failing for longer
 * than the ttl (the database away: another may have taken over), lose it for good.
 */
export function holdLease({ db, schema, name, holder = instanceName(), heartbeatMs = LEASE_HEARTBEAT_MS, ttlMs = LEASE_TTL_MS, onLost }: LeaseOptions): Lease {
  let epoch: number | null = null
  let stopped = false
  let timer: ReturnType<typeof setTimeout> | null = null
  let lastRenewed = 0
  let resolveAcquired!: (epoch: number) => void
  let rejectAcquired!: (error: Error) => void
  const acquired = new Promise<number>((resolve, reject) => {
    resolveAcquired = resolve
    rejectAcquired = reject
  })
  acquired.catch(() => {})

  const schedule = () => {
    if (!stopped) timer = setTimeout(tick, heartbeatMs)
  }
  const lose = (why: string) => {
    const lost = epoch
    epoch = null
    stopped = true
    onLost?.(new FencedError(`the ${name} lease of epoch ${lost} was lost: ${why}`))
  }
  const tick = async () => {
    timer = null
    try {
      if (epoch === null) {
        const taken = await tryAcquire(db, schema, name, holder, ttlMs)
        if (taken !== null && stopped) {
          await release(db, schema, name, taken)
        } else if (taken !== null) {
          epoch = taken
          lastRenewed = performance.now()
          resolveAcquired(taken)
        }
      } else if (await renew(db, schema, name, epoch)) {
        lastRenewed = performance.now()
      } else {
        return lose('another instance took it over')
      }
    } catch (error) {
      // The database away: a standby tries again; a holder keeps trying until the lease may have lapsed.
      if (epoch !== null && performance.now() - lastRenewed > ttlMs) return lose(`no renewal for ${ttlMs} ms (${error instanceof Error ? error.message : String(error)})`)
    }
    schedule()
  }
  void tick()

  return {
    holder,
    epoch: () => epoch,
    acquired,
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      rejectAcquired(new StackError(`stopped before the ${name} lease was held`))
      const held = epoch
      epoch = null
      if (held !== null) await release(db, schema, name, held).catch(() => {})
    },
  }
}
