import type { Database } from 'bun:sqlite'

/**
 * A schema change, applied once, in order, and recorded by id. Each layer (the spool, each
 * derived stream) contributes its own; ids are never reused or edited once released.
 *
 * `restarts` names a derived stream that must derive everything again once this is applied (its
 * tables changed shape and the SQL emptied them): the spool forgets that stream's cursor, and
 * the stream starts over from the spool's first log. The spool holds every log, so nothing is lost.
 *
 * `fill` derives, in the same transaction, what a new table must hold of the rows already there
 * (what SQL alone cannot read, such as the stored call trees).
 */
export type Migration = { id: string; sql: string; restarts?: string; fill?: (db: Database) => void }
