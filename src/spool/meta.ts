import type { Queries, SpoolTx } from './engine.ts'

// The spool's meta table (its cursor, its identity, the indexer's health), read and written in
// SQL both engines take.

/** A meta key's value (`?`: the key), in SQL both engines take. */
export const GET_META_SQL = 'SELECT value FROM meta WHERE key = ?'

/** A meta key's value, or null, on either engine. */
export async function getMeta(db: Queries, key: string): Promise<string | null> {
  return (await db.get<{ value: string }>(GET_META_SQL, key))?.value ?? null
}

/** A meta key set (`?`: the key, its value), in SQL both engines take. */
export const SET_META_SQL = 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'

/** Sets a meta key inside the writer's transaction `tx`. */
export async function setMeta(tx: SpoolTx, key: string, value: string): Promise<void> {
  await tx.run(SET_META_SQL, key, value)
}
