import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { parseConfig } from './config/load.ts'
import { tableNames } from './spool/kit/tables.ts'
import { migrate, spoolMigrations } from './spool/sqlite/migrations.ts'
import { createStreams } from './streams.ts'

// The spool rolls back only what a stream declares: a table created by a stream's migrations and
// missing from its declarations would keep the rows of orphaned blocks after a reorganisation.
test('every table a stream creates is declared to the spool, and every declared table exists', () => {
  for (const stream of createStreams(parseConfig('', null))) {
    const db = new Database(':memory:', { strict: true })
    migrate(db, spoolMigrations)
    const tables = () => new Set(db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => row.name))
    const before = tables()
    migrate(db, stream.migrations)
    const created = [...tables()].filter((name) => !before.has(name)).sort()
    expect([stream.name, created]).toEqual([stream.name, stream.tables.flatMap(tableNames).sort()])
    db.close()
  }
})
