import { startPostgresServer, type PostgresServer } from './postgresServer.ts'
import { atTestRunEnd } from './testEnd.ts'

// The test run's PostgreSQL server (tests/helpers/postgresServer.ts): one for the whole run,
// started by the first file that asks and stopped once the run is over; each file asks it for a
// database of its own.

export type { PostgresServer }

let shared: Promise<PostgresServer> | null = null

/** The test run's server, started on the first call, stopped and removed once the run is over. */
export function testPostgres(): Promise<PostgresServer> {
  shared ??= (async () => {
    const server = await startPostgresServer()
    atTestRunEnd(() => server.stop())
    return server
  })()
  return shared
}

