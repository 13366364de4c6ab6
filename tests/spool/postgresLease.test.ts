import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { checkFence, createLeaseTable, FencedError, holdLease, leaseHolder, renew, tryAcquire, type Lease } from '../../src/spool/postgres/lease.ts'
import { postgresWriter } from '../../src/spool/postgres/writer.ts'
import { testPostgres } from '../helpers/postgres.ts'
import { waitFor } from '../helpers/wait.ts'

// The writer's lease on a real PostgreSQL: one holder at a time, a standby that takes over a
// released or lapsed lease with the next epoch, and a fence that every write batch checks in its
// own transaction, so that a holder paused past its lease writes nothing after the takeover.

const SCHEMA = 'lease_test'
let db: SQL
const leases: Lease[] = []
const hold = (name: string, onLost?: (error: FencedError) => void) => {
  const lease = holdLease({ db, schema: SCHEMA, name, heartbeatMs: 50, ttlMs: 400, onLost })
  leases.push(lease)
  return lease
}

beforeAll(async () => {
  const server = await testPostgres()
  db = new SQL(await server.database('lease'), { max: 6 })
  await db.unsafe(`CREATE SCHEMA ${SCHEMA}`)
  await db.unsafe(`CREATE TABLE ${SCHEMA}.written (batch text NOT NULL)`)
  await createLeaseTable(db, SCHEMA)
})
afterAll(async () => {
  await Promise.all(leases.map((lease) => lease.stop()))
  await db?.close()
})

/** A write batch as a holder at `epoch` makes it: through the spool's writer, whose transaction passes the fence, then writes its row. */
const writeBatch = (name: string, epoch: number, batch: string, before: () => Promise<void> = async () => {}) =>
  postgresWriter(db, { schema: SCHEMA, fence: (tx) => checkFence(tx, SCHEMA, name, epoch) }).transaction(async (tx) => {
    await tx.run(`INSERT INTO ${SCHEMA}.written (batch) VALUES (?)`, batch)
    await before()
  })
const written = async () => ((await db.unsafe(`SELECT batch FROM ${SCHEMA}.written ORDER BY batch`)) as Array<{ batch: string }>).map((row) => row.batch)

describe('the writer lease', () => {
  test('the first takes it at epoch 1; a second stands by while it is renewed, and takes it at epoch 2 once it is released', async () => {
    const first = hold('one')
    expect(await first.acquired).toBe(1)
    const second = hold('one')
    // The standby tries every 50 ms for half a second, each time refused while the first renews.
    await waitFor(async () => ((await leaseHolder(db, SCHEMA, 'one'))?.heartbeatAgeMs ?? 1e9) < 400, 'a renewed lease')
    await Bun.sleep(500)
    expect(second.epoch()).toBeNull()
    expect(await leaseHolder(db, SCHEMA, 'one')).toMatchObject({ holder: first.holder, epoch: 1 })
    await first.stop()
    expect(await second.acquired).toBe(2)
    expect(await leaseHolder(db, SCHEMA, 'one')).toMatchObject({ holder: second.holder, epoch: 2 })
  })

  test('a holder paused past its lease is fenced: the standby takes over and the paused one writes nothing', async () => {
    const paused = await tryAcquire(db, SCHEMA, 'two', 'paused', 400)
    expect(paused).toBe(1)
    await writeBatch('two', 1, 'a: before the pause')
    // It renews no more, as a process stopped by SIGSTOP does; the standby takes over once the lease lapses.
    const standby = hold('two')
    expect(await standby.acquired).toBe(2)
    await expect(writeBatch('two', 1, 'b: after the takeover')).rejects.toBeInstanceOf(FencedError)
    expect(await renew(db, SCHEMA, 'two', 1)).toBe(false)
    await writeBatch('two', 2, 'c: the new holder')
    expect(await written()).toEqual(['a: before the pause', 'c: the new holder'])
  })

  test('a takeover waits for the batch that is running; the batch after it is refused', async () => {
    await db.unsafe(`DELETE FROM ${SCHEMA}.written`)
    expect(await tryAcquire(db, SCHEMA, 'three', 'slow', 200)).toBe(1)
    const events: string[] = []
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const running = writeBatch('three', 1, 'a: running', () => held).then(() => events.push('batch committed'))
    await waitFor(async () => (await written()).length === 0 && (await leaseHolder(db, SCHEMA, 'three'))!.heartbeatAgeMs > 250, 'the lease to lapse while the batch runs')
    const takeover = tryAcquire(db, SCHEMA, 'three', 'standby', 200).then((epoch) => {
      events.push(`taken at epoch ${epoch}`)
      return epoch
    })
    // Lapsed for 200 ms more, and still not taken: the takeover waits on the running batch's lock of the row.
    await Bun.sleep(200)
    expect(events).toEqual([])
    release()
    await running
    expect(await takeover).toBe(2)
    expect(events.sort()).toEqual(['batch committed', 'taken at epoch 2'])
    await expect(writeBatch('three', 1, 'b: after')).rejects.toThrow(/epoch 2 holds it now/)
    expect(await written()).toEqual(['a: running'])
  })

  test('a holder whose lease was taken over is told once, and stops renewing', async () => {
    const lost: FencedError[] = []
    const holder = hold('four', (error) => lost.push(error))
    expect(await holder.acquired).toBe(1)
    // Another takes it as if it had lapsed: its epoch moves on.
    await db.unsafe(`UPDATE ${SCHEMA}.stack_leases SET epoch = epoch + 1, holder = 'other' WHERE name = 'four'`)
    await waitFor(() => lost.length > 0, 'the loss to be said')
    expect(lost).toHaveLength(1)
    expect(lost[0]!.message).toContain('epoch 1 was lost')
    expect(holder.epoch()).toBeNull()
    await Bun.sleep(200)
    expect(lost).toHaveLength(1)
    expect(await leaseHolder(db, SCHEMA, 'four')).toMatchObject({ holder: 'other', epoch: 2 })
  })
})
