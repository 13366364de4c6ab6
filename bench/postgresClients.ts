// bun run bench:postgres-clients [batches] [rows per batch] [reads]
//
// The two PostgreSQL clients the stack could use, Bun's built-in `Bun.sql` and the `postgres`
// package, on the spool's own kind of work, against one server of the bench's own (Debian's
// postgresql, started as tests/helpers/postgres.ts starts it): batches of log rows written in a
// transaction each (bigint keys, bytea addresses, topics and data, as the spool stores them),
// once as one INSERT of many VALUES and once as an INSERT from unnest() of one array a column;
// then page reads by an indexed address, 8 at a time, as routes ask. The ceiling, in the same
// run: the embedded engine the stack uses today, a plain bun:sqlite prepared insert of the same
// rows in the same transactions, and the same page read.
import { Database } from 'bun:sqlite'
import { SQL } from 'bun'
import { join } from 'node:path'
import postgres from 'postgres'
import { postgresBin, startPostgresServer } from '../tests/helpers/postgresServer.ts'
import { atExit, fmt, printTable, runConcurrently, scratchDir, summarize } from './harness.ts'

const [batches = 200, perBatch = 500, reads = 20_000] = process.argv.slice(2).map(Number)
const READ_WIDTH = 8
const PAGE = 25
/** Addresses the rows are spread over, so that a page read finds a full page. */
const ADDRESSES = 200

type Row = { txId: number; logIndex: number; block: number; address: Uint8Array; topic0: Uint8Array; data: Uint8Array }

const bytes = (length: number, seed: number) => {
  const out = new Uint8Array(length)
  for (let index = 0; index < length; index++) out[index] = (seed * 31 + index * 7) & 0xff
  return out
}
const addresses = Array.from({ length: ADDRESSES }, (_, index) => bytes(20, index + 1))
const topic = bytes(32, 99)

function batchRows(batch: number): Row[] {
  return Array.from({ length: perBatch }, (_, index) => {
    const block = batch * 10 + Math.floor(index / 50)
    return { txId: block * 2 ** 20 + (index % 50), logIndex: index, block, address: addresses[(batch * perBatch + index) % ADDRESSES]!, topic0: topic, data: bytes(64, index) }
  })
}

const SCHEMA = `CREATE TABLE logs (tx_id bigint NOT NULL, log_index integer NOT NULL, block_number bigint NOT NULL, address bytea NOT NULL, topic0 bytea, data bytea NOT NULL, PRIMARY KEY (tx_id, log_index));
CREATE INDEX logs_address ON logs (address, tx_id)`

type Client = {
  name: string
  reset: () => Promise<void>
  writeValues: (rows: Row[]) => Promise<void>
  writeUnnest: (rows: Row[]) => Promise<void>
  page: (address: Uint8Array) => Promise<number>
  close: () => Promise<void>
}

function bunClient(url: string): Client {
  const sql = new SQL(url, { max: READ_WIDTH })
  return {
    name: 'Bun.sql',
    reset: async () => {
      await sql.unsafe('DROP TABLE IF EXISTS logs')
      await sql.unsafe(SCHEMA)
    },
    writeValues: async (rows) => {
      await sql.begin(async (tx) => {
        const params: unknown[] = []
        const values = rows.map((row, index) => {
          params.push(row.txId, row.logIndex, row.block, row.address, row.topic0, row.data)
          const at = index * 6
          return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`
        })
        await tx.unsafe(`INSERT INTO logs VALUES ${values.join(', ')}`, params)
      })
    },
    writeUnnest: async (rows) => {
      await sql.begin(async (tx) => {
        await tx.unsafe('INSERT INTO logs SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bigint[], $4::bytea[], $5::bytea[], $6::bytea[])', [
          sql.array(rows.map((row) => row.txId), 'INT8'),
          sql.array(rows.map((row) => row.logIndex), 'INT4'),
          sql.array(rows.map((row) => row.block), 'INT8'),
          sql.array(rows.map((row) => row.address), 'BYTEA'),
          sql.array(rows.map((row) => row.topic0), 'BYTEA'),
          sql.array(rows.map((row) => row.data), 'BYTEA'),
        ])
      })
    },
    page: async (address) => (await sql.unsafe('SELECT tx_id, log_index, data FROM logs WHERE address = $1 ORDER BY tx_id DESC LIMIT $2', [address, PAGE])).length,
    close: () => sql.close(),
  }
}

function packageClient(url: string): Client {
  const sql = postgres(url, { max: READ_WIDTH, onnotice: () => {}, types: { bigint: postgres.BigInt } })
  return {
    name: 'postgres',
    reset: async () => {
      await sql.unsafe('DROP TABLE IF EXISTS logs')
      await sql.unsafe(SCHEMA)
    },
    writeValues: async (rows) => {
      await sql.begin(async (tx) => {
        await tx`INSERT INTO logs ${tx(rows.map((row) => ({ tx_id: row.txId, log_index: row.logIndex, block_number: row.block, address: Buffer.from(row.address), topic0: Buffer.from(row.topic0), data: Buffer.from(row.data) })))}`
      })
    },
    writeUnnest: async (rows) => {
      await sql.begin(async (tx) => {
        await tx`INSERT INTO logs SELECT * FROM unnest(${tx.array(rows.map((row) => row.txId))}::bigint[], ${tx.array(rows.map((row) => row.logIndex))}::integer[], ${tx.array(rows.map((row) => row.block))}::bigint[], ${tx.array(rows.map((row) => Buffer.from(row.address)))}::bytea[], ${tx.array(rows.map((row) => Buffer.from(row.topic0)))}::bytea[], ${tx.array(rows.map((row) => Buffer.from(row.data)))}::bytea[])`
      })
    },
    page: async (address) => (await sql`SELECT tx_id, log_index, data FROM logs WHERE address = ${Buffer.from(address)} ORDER BY tx_id DESC LIMIT ${PAGE}`).length,
    close: () => sql.end(),
  }
}

/** The same rows in the same transactions through bun:sqlite's prepared insert, a plain loop. */
function sqliteCeiling(path: string) {
  const db = new Database(path, { create: true })
  db.run('PRAGMA journal_mode = WAL')
  db.run('PRAGMA synchronous = NORMAL')
  for (const statement of SCHEMA.replace(/bigint|integer/g, 'INTEGER').replace(/bytea/g, 'BLOB').split(';')) db.run(statement)
  const insert = db.prepare('INSERT INTO logs VALUES (?, ?, ?, ?, ?, ?)')
  const page = db.prepare('SELECT tx_id, log_index, data FROM logs WHERE address = ? ORDER BY tx_id DESC LIMIT ?')
  const write = db.transaction((rows: Row[]) => {
    for (const row of rows) insert.run(row.txId, row.logIndex, row.block, row.address, row.topic0, row.data)
  })
  return { write, page: (address: Uint8Array) => page.all(address, PAGE).length, close: () => db.close() }
}

async function timeWrites(write: (rows: Row[]) => Promise<void> | void): Promise<number> {
  const started = performance.now()
  for (let batch = 0; batch < batches; batch++) await write(batchRows(batch))
  return (batches * perBatch) / ((performance.now() - started) / 1000)
}

async function timeReads(name: string, page: (address: Uint8Array) => Promise<number> | number) {
  let found = 0
  const run = await runConcurrently(reads, READ_WIDTH, async (index) => {
    const rows = await page(addresses[index % ADDRESSES]!)
    found += rows
  })
  if (found !== reads * PAGE) throw new Error(`${name}: the reads found ${found} rows, not ${reads * PAGE}`)
  return { perSecond: reads / run.seconds, p99: summarize(run.durations).p99 }
}

const server = await startPostgresServer()
atExit(() => server.stop())
const dir = scratchDir('postgres-clients')
const url = await server.database('clients')
const sqlite = sqliteCeiling(join(dir, 'ceiling.db'))
const ceilingWrites = await timeWrites(sqlite.write)
const ceilingReads = await timeReads('bun:sqlite', sqlite.page)
sqlite.close()

const rows: Array<Array<string | number>> = []
for (const client of [bunClient(url), packageClient(url)]) {
  await client.reset()
  const values = await timeWrites(client.writeValues)
  await client.reset()
  const unnest = await timeWrites(client.writeUnnest)
  const read = await timeReads(client.name, client.page)
  rows.push([client.name, fmt.count(values), fmt.count(unnest), fmt.ratio(Math.max(values, unnest), ceilingWrites), fmt.count(read.perSecond), fmt.ms(read.p99), fmt.ratio(read.perSecond, ceilingReads.perSecond)])
  await client.close()
}
rows.push(['bun:sqlite (ceiling)', fmt.count(ceilingWrites), '–', '1.00', fmt.count(ceilingReads.perSecond), fmt.ms(ceilingReads.p99), '1.00'])

printTable(
  `PostgreSQL clients on the spool's work: ${fmt.count(batches)} transactions of ${fmt.count(perBatch)} log rows, then ${fmt.count(reads)} page reads (${PAGE} rows by address), ${READ_WIDTH} at a time`,
  ['client', 'rows/s (VALUES)', 'rows/s (unnest)', 'writes of ceiling', 'reads/s', 'read p99 ms', 'reads of ceiling'],
  rows,
  [
    `server: Debian's PostgreSQL ${/\d+\.\d+/.exec(Bun.spawnSync([`${postgresBin()}/postgres`, '--version']).stdout.toString())?.[0]} on the loopback, fsync off, as the tests start it`,
    'ceiling: the same rows in the same transactions through a plain bun:sqlite prepared insert, and the same page read, in the same run',
  ],
)
process.exit(0)
