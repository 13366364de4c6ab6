import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import type { SpoolWriter } from '../../src/spool/engine.ts'
import { connectPostgres } from '../../src/spool/postgres/connect.ts'
import { followHeads, type HeadFollower } from '../../src/spool/postgres/heads.ts'
import { migratePostgres } from '../../src/spool/postgres/migrate.ts'
import { postgresSpoolMigrations } from '../../src/spool/postgres/migrations.ts'
import { postgresWriter } from '../../src/spool/postgres/writer.ts'
import { rollbackTo, writeBatch } from '../../src/spool/store.ts'
import { startPostgresServer, type PostgresServer } from '../helpers/postgresServer.ts'
import { syntheticBundle } from '../helpers/spoolBlocks.ts'
import { waitFor } from '../helpers/wait.ts'

// The readers learn of the writer's heads from PostgreSQL's notifications, sent in the writer's
// transaction: at its commit, never for one rolled back; each subscription reads the cursor
// itself; and a listener whose connection the server dropped is subscribed again. A server of
// this file's own, since the file restarts it.

const SCHEMA = 'heads_test'
let server: PostgresServer
let pool: SQL
let writer: SpoolWriter
let reader: SQL
let follower: HeadFollower
const heads: number[] = []

beforeAll(async () => {
  server = await startPostgresServer()
  const url = await server.database('heads')
  pool = connectPostgres(url, { schema: SCHEMA, max: 2 })
  writer = postgresWriter(pool, { schema: SCHEMA })
  reader = new SQL(url, { max: 2 })
  await migratePostgres(pool, SCHEMA, postgresSpoolMigrations)
  follower = await followHeads(reader, SCHEMA, (head) => heads.push(head))
})
afterAll(async () => {
  await follower?.stop()
  await reader?.close()
  await pool?.close()
  server?.stop()
})

const write = (from: number, to: number) => writeBatch(writer, Array.from({ length: to - from + 1 }, (_, offset) => syntheticBundle(from + offset)))

describe('heads by notification', () => {
  test('the subscription reads the cursor; each committed batch is told with its last block, in order', async () => {
    await waitFor(() => heads.length > 0, 'the head read at subscription')
    expect(heads).toEqual([-1])
    await write(0, 9)
    await write(10, 19)
    await rollbackTo(writer, 15)
    await waitFor(() => heads.length === 4, 'three heads')
    expect(heads).toEqual([-1, 9, 19, 15])
  })

  test('a batch rolled back is never told', async () => {
    heads.length = 0
    // The writer's transaction fails once the batch's rows and its head are in it.
    const failing: SpoolWriter = {
      ...writer,
      transaction: (work) =>
        writer.transaction(async (tx) => {
          await work(tx)
          throw new Error('the batch fails after its rows')
        }),
    }
    const failed = await writeBatch(failing, [syntheticBundle(16)]).catch((error: Error) => error.message)
    expect(failed).toBe('the batch fails after its rows')
    await write(16, 16)
    await waitFor(() => heads.length > 0, 'the next head')
    // The failed batch's head (16) and the next (16) look alike: only one arrived.
    await Bun.sleep(200)
    expect(heads).toEqual([16])
  })

  test('after the server restarts, the listener is subscribed again: the heads written since arrive', async () => {
    heads.length = 0
    server.kill()
    server.start()
    // The writer's pool reconnects on its next query; this head is written while the listener may still be away.
    await waitFor(async () => {
      try {
        await write(17, 30)
        return true
      } catch {
        return false
      }
    }, 'a write after the restart', 30_000)
    await waitFor(() => heads.includes(30), 'head 30 after the restart', 30_000)
    await write(31, 31)
    await waitFor(() => heads.includes(31), 'the next head by notification', 30_000)
  })
})
