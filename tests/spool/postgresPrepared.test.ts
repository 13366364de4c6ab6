import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SQL } from 'bun'
import { connectPostgres } from '../../src/spool/postgres/connect.ts'
import { postgresDb } from '../../src/spool/postgres/reader.ts'
import { testPostgres } from '../helpers/postgres.ts'

// The pools that read keep their statements prepared (connect.ts). What that rests on, against a
// real server: each query gets its own rows however the client interleaves them on a connection
// (Bun's prepared statements once gave one query's rows to another: oven-sh/bun#33665, #32772);
// a statement kept across a table made anew reads the new table; and each run is planned for its
// own values.

const SCHEMA = 'prepared_test'

let url: string
let admin: SQL

beforeAll(async () => {
  url = await (await testPostgres()).database('prepared')
  admin = new SQL({ url, max: 1 })
  await admin.unsafe(`CREATE SCHEMA ${SCHEMA}`)
  await admin.unsafe(`CREATE TABLE ${SCHEMA}.t (id BIGINT PRIMARY KEY, word BYTEA NOT NULL, ok BOOLEAN NOT NULL)`)
  await admin.unsafe(`INSERT INTO ${SCHEMA}.t SELECT g, int8send(g), g % 2 = 0 FROM generate_series(1, 1000) g`)
})
afterAll(async () => {
  await admin?.close()
})

const word = (n: number) => {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n))
  return bytes
}

describe('reads through a pool of prepared statements', () => {
  test('each query gets its own rows, however they interleave on one connection', async () => {
    const pool = connectPostgres(url, { schema: SCHEMA, max: 1, prepare: true })
    const db = postgresDb(pool)
    const wrong: string[] = []
    try {
      for (let round = 0; round < 150; round++) {
        const id = 1 + ((round * 37) % 1000)
        const answers = await Promise.all([
          // No parameters: the simple protocol, beside statements being prepared and run.
          pool.unsafe(`SELECT 'plain' AS v`).then((rows) => rows[0]?.v === 'plain' || `plain: ${JSON.stringify(rows[0])}`),
          // A text seen for the first time (prepared now), between statements prepared before.
          pool.unsafe(`SELECT $1::text AS novel_${round}`, [`n${round}`]).then((rows) => rows[0]?.[`novel_${round}`] === `n${round}` || `novel: ${JSON.stringify(rows[0])}`),
          db.get<{ id: number; word: Uint8Array; ok: number }>('SELECT id, word, ok FROM t WHERE id = ?', id).then((row) => (row?.id === id && Buffer.from(row.word).equals(word(id)) && row.ok === (id % 2 === 0 ? 1 : 0)) || `row ${id}: ${JSON.stringify(row)}`),
          db.all<{ n: number }>('SELECT count(*) AS n FROM t WHERE id <= ?', id).then((rows) => rows[0]?.n === id || `count ${id}: ${JSON.stringify(rows)}`),
          db.snapshot(async (inner) => (await inner.get<{ id: number }>('SELECT max(id) AS id FROM t WHERE id < ?', id + 1))?.id).then((found) => found === id || `snapshot ${id}: ${found}`),
          pool.unsafe(`SELECT $1::int + 1 AS n, $2::text AS s`, [round, 'x']).then((rows) => (rows[0]?.n === round + 1 && rows[0]?.s === 'x') || `pair: ${JSON.stringify(rows[0])}`),
        ])
        for (const answer of answers) if (answer !== true) wrong.push(`round ${round}: ${answer}`)
      }
    } finally {
      await pool.close()
    }
    expect(wrong).toEqual([])
  }, 60_000)

  test('a statement kept across a table made anew reads the new table', async () => {
    const pool = connectPostgres(url, { schema: SCHEMA, max: 2, prepare: true })
    const db = postgresDb(pool)
    const read = () => Promise.all([1, 2].map((id) => db.get<Record<string, unknown>>('SELECT * FROM remade WHERE id = ?', id)))
    try {
      await admin.unsafe(`CREATE TABLE ${SCHEMA}.remade (id BIGINT PRIMARY KEY, v TEXT)`)
      await admin.unsafe(`INSERT INTO ${SCHEMA}.remade VALUES (1, 'one'), (2, 'two')`)
      for (let run = 0; run < 6; run++) expect(await read()).toEqual([{ id: 1, v: 'one' }, { id: 2, v: 'two' }])
      // As a stream's migration does under running api instances: the table dropped and made
      // again with another column's type and one column more.
      await admin.unsafe(`DROP TABLE ${SCHEMA}.remade`)
      await admin.unsafe(`CREATE TABLE ${SCHEMA}.remade (id BIGINT PRIMARY KEY, v BYTEA, w INT)`)
      await admin.unsafe(`INSERT INTO ${SCHEMA}.remade VALUES (1, '\\x01', 10), (2, '\\x02', 20)`)
      expect(await read()).toEqual([
        { id: 1, v: new Uint8Array([1]), w: 10 },
        { id: 2, v: new Uint8Array([2]), w: 20 },
      ])
    } finally {
      await pool.close()
    }
  })

  test('each run is planned for its own values, never by a plan made once for any', async () => {
    const prepared = connectPostgres(url, { schema: SCHEMA, max: 1, prepare: true })
    const plain = connectPostgres(url, { schema: SCHEMA, max: 1 })
    const query = 'SELECT id FROM t WHERE ok = $1 AND id BETWEEN $2 AND $3 ORDER BY id DESC LIMIT 5'
    const plans = (pool: SQL) => pool.unsafe('SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement = $1', [query])
    try {
      for (let run = 0; run < 10; run++) {
        for (const pool of [prepared, plain]) expect((await pool.unsafe(query, [true, run, 1000])).length).toBe(5)
      }
      // PostgreSQL turns to a plan made for any values after five runs, unless told not to.
      expect([...(await plans(prepared))]).toEqual([{ generic: 0, custom: 10 }])
      expect([...(await plans(plain))]).toEqual([])
    } finally {
      await Promise.all([prepared.close(), plain.close()])
    }
  })
})
