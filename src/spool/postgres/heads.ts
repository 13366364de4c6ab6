import type { SQL } from 'bun'
import type { Queryable } from './lease.ts'

// How the instances that read learn of the writer's new heads (docs/spool.md): a notification on
// a channel of the schema's, sent inside the writer's transaction, so that it is delivered when
// the batch commits and never for one rolled back; no instance polls. A listening connection
// that drops is made again and subscribed again by the client (Bun.sql), and each subscription,
// the first and every one after, reads the cursor itself, so a head written while it was away is
// not missed. PostgreSQL refuses LISTEN on a standby: the channel is the primary's.

/** The schema's heads channel (PostgreSQL's limit is 63 bytes: a schema name of at most 50). */
export const headsChannel = (schema: string) => `stack_heads:${schema}`

/** Inside the writer's transaction: the spool's new head (its cursor), told to every listener at commit. */
export async function notifyHead(tx: Queryable, schema: string, head: number): Promise<void> {
  await tx.unsafe('SELECT pg_notify($1, $2)', [headsChannel(schema), String(head)])
}

/** The spool's cursor in `schema`, or -1 before its first block. */
export async function readCursor(db: Queryable, schema: string): Promise<number> {
  const rows = (await db.unsafe(`SELECT value FROM "${schema}".meta WHERE key = 'cursor'`)) as Array<{ value: string }>
  return rows.length === 0 ? -1 : Number(rows[0]!.value)
}

export type HeadFollower = { stop: () => Promise<void> }

/**
 * Calls `onHead` with every head the writer commits, and with the cursor read at each
 * subscription (the first, and after every reconnection); `onError` with a failed read of it.
 */
export async function followHeads(sql: SQL, schema: string, onHead: (head: number) => void, onError: (error: unknown) => void = () => {}): Promise<HeadFollower> {
  const subscription = await sql.listen(
    headsChannel(schema),
    (payload) => {
      const head = Number(payload)
      if (Number.isSafeInteger(head)) onHead(head)
    },
    () => {
      readCursor(sql, schema).then(onHead, onError)
    },
  )
  return { stop: () => subscription.unlisten() }
}
