// Derivation on bench:index, measured against what any derivation of the same streams costs:
// reading the stream's logs (the same passes with nothing applied) and writing the rows it
// wrote (its tables, copied by a plain loop of prepared inserts into empty tables with the same
// indexes). Each stream runs on a fresh copy of the filled spool, three times; the best run
// counts, as this machine's speed moves by a third from one second to the next.
import { copyFileSync, rmSync } from 'node:fs'
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { openSpool } from '../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../src/spool/sqlite/engine.ts'
import { tableNames } from '../src/spool/kit/tables.ts'
import type { Migration } from '../src/spool/migrations.ts'
import { MAX_LOGS_PER_PASS, runPass, type StreamDefinition } from '../src/spool/streams.ts'
import { fmt } from './harness.ts'

export const DERIVATION_COLUMNS = ['stream', 'logs derived', 'passes', 'seconds', 'reading alone, s', 'writing its rows alone, s', 'logs/s', 'ceiling logs/s', 'of ceiling']

const RUNS = 3

type Spec = { filled: string; scratch: string; migrations: Migration[]; head: number; historyFrom: number }

/** One table row per log stream: its best run against the reading and writing floor. */
export async function measureDerivation(streams: StreamDefinition[], spec: Spec): Promise<string[][]> {
  const rows: string[][] = []
  for (const stream of streams) {
    if (stream.kind === 'blocks') continue
    let best = { logs: 0, passes: 0, seconds: Infinity }
    let reading = Infinity
    let writing = Infinity
    for (let run = 0; run < RUNS; run++) {
      reading = Math.min(reading, await onCopy(spec, async (db) => (await derive(db, { ...stream, apply: async () => {} }, spec)).seconds))
      const measured = await onCopy(spec, async (db) => ({ ...(await derive(db, stream, spec)), writing: writeAlone(db, stream) }))
      if (measured.seconds < best.seconds) best = measured
      writing = Math.min(writing, measured.writing)
    }
    const { logs, passes, seconds } = best
    const ceiling = logs / (reading + writing)
    const rate = (value: string) => (logs === 0 ? '–' : value)
    rows.push([stream.name, String(logs), String(passes), seconds.toFixed(2), reading.toFixed(2), writing.toFixed(2), rate(fmt.count(logs / seconds)), rate(fmt.count(ceiling)), rate((logs / seconds / ceiling).toFixed(2))].map(String))
  }
  return rows
}

/** Runs `measure` on a fresh copy of the filled spool. */
async function onCopy<T>(spec: Spec, measure: (db: Database) => Promise<T>): Promise<T> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${spec.scratch}${suffix}`, { force: true })
  copyFileSync(spec.filled, spec.scratch)
  const db = openSpool(spec.scratch, spec.migrations)
  try {
    return await measure(db)
  } finally {
    db.close()
  }
}

/** Every pass of a stream until it has caught up with the spool, as the follower runs them. */
async function derive(db: Database, stream: StreamDefinition, spec: Spec) {
  const writer = sqliteWriter(db)
  let logs = 0
  let passes = 0
  const started = performance.now()
  for (;;) {
    const pass = await runPass(writer, stream, spec.head, { historyFrom: spec.historyFrom })
    logs += pass.logs
    passes++
    if (pass.caughtUp) break
  }
  return { logs, passes, seconds: (performance.now() - started) / 1000 }
}

/**
 * Seconds to write every row the stream wrote into its tables, emptied, by prepared inserts in
 * the tables' order, MAX_LOGS_PER_PASS rows a transaction: the rows read beforehand, only the
 * writes timed. (A state row is written once here; the stream writes it once per pass that
 * changes it.)
 */
function writeAlone(db: Database, stream: StreamDefinition): number {
  let seconds = 0
  for (const table of stream.tables.flatMap(tableNames)) {
    const rows = db.query<Record<string, SQLQueryBindings>, []>(`SELECT * FROM ${table}`).values()
    const columns = db.query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${table}')`).all().length
    db.run(`DELETE FROM ${table}`)
    const insert = db.query(`INSERT INTO ${table} VALUES (${Array.from({ length: columns }, () => '?').join(', ')})`)
    const started = performance.now()
    for (let from = 0; from < rows.length; from += MAX_LOGS_PER_PASS) {
      db.transaction(() => {
        for (const row of rows.slice(from, from + MAX_LOGS_PER_PASS)) insert.run(...(row as SQLQueryBindings[]))
      })()
    }
    seconds += (performance.now() - started) / 1000
  }
  return seconds
}
