import { SQL } from 'bun'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A PostgreSQL server of a test run's or a bench's own: Debian's `postgresql` (tests/postgres.sh
// installs it), started in a temporary folder of its own on a free port of the loopback, with a
// superuser of its own and no password over the loopback (trust). The server refuses to run as
// root, so as root it runs as the `postgres` user the package creates. The test run's one server
// is tests/helpers/postgres.ts's.

export type PostgresServer = {
  /** The server's port on 127.0.0.1. */
  port: number
  /** A new, empty database of the caller's own, by URL. */
  database: (prefix?: string) => Promise<string>
  /** The server's own log, for a test that fails to say what the server said. */
  log: () => string
  /** Stops the server at once (`pg_ctl stop -m immediate`), as a crash would, keeping its files. */
  kill: () => void
  /** Starts it again on the same port and files, after `kill`. */
  start: () => void
  /** Stops it for good (fast shutdown, if it still runs) and removes its files. */
  stop: () => void
  /** A streaming replica of it, started. */
  replica: () => Promise<PostgresReplica>
}

/** The run's superuser: not `postgres`, so that nothing passes by a default name. */
export const SUPERUSER = 'stack_test'

/** The newest PostgreSQL Debian installed (/usr/lib/postgresql/<version>/bin), or null when there is none. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : null
}

/** A port nothing listens on now (the kernel's pick for a listener on port 0, closed again). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** A streaming replica of a server: read-only, replaying what the server writes. */
export type PostgresReplica = {
  port: number
  /** `url`, a database of the server's, on the replica. */
  urlOf: (url: string) => string
  /** Stops replaying the server's log (pg_wal_replay_pause), or goes on replaying it. */
  pauseReplay: () => Promise<void>
  resumeReplay: () => Promise<void>
  /** Stops it and removes its files. */
  stop: () => void
}

/** A folder of the server's own, owned by the `postgres` user when run as root (the server refuses to run as root). */
function serverFolder(): { dir: string; run: (command: string[]) => void; logFile: string } {
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'stack-postgres-'))
  const logFile = join(dir, 'server.log')
  if (asRoot) {
    const { uid, gid } = postgresUser()
    chownSync(dir, uid, gid)
    chmodSync(dir, 0o700)
  }
  const run = (command: string[]) => {
    const result = Bun.spawnSync(asRoot ? ['runuser', '-u', 'postgres', '--', ...command] : command, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, LC_ALL: 'C.UTF-8' } })
    if (result.exitCode !== 0) throw new Error(`${command.join(' ')} failed:\n${result.stderr.toString()}${result.stdout.toString()}\n${existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''}`)
  }
  return { dir, run, logFile }
}

/** `pg_ctl start` and `stop` of the cluster in `data`, on `port`. */
function control(bin: string, { dir, run, logFile }: ReturnType<typeof serverFolder>, data: string, port: number) {
  // fsync off: the tests' data need not outlive a crash of the machine, and a test's crash is a kill of the server, which keeps what it wrote.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
  return {
    start: () => run([join(bin, 'pg_ctl'), '-D', data, '-o', options, '-l', logFile, '-w', '-t', '60', 'start']),
    stop: (mode: 'fast' | 'immediate') => run([join(bin, 'pg_ctl'), '-D', data, '-m', mode, '-w', 'stop']),
  }
}

/** A server in a temporary folder of its own (removed by `stop`), on a free port. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = postgresBin()
  if (!bin) throw new Error("the PostgreSQL tests need Debian's postgresql: run 'apt-get install -y postgresql' (npm test runs tests/postgres.sh, which does)")
  const folder = serverFolder()
  const { dir, run, logFile } = folder
  const data = join(dir, 'data')
  run([join(bin, 'initdb'), '-D', data, '-U', SUPERUSER, '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'])
  const port = await freePort()
  const { start, stop } = control(bin, folder, data, port)
  start()
  const admin = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`
  let made = 0
  return {
    port,
    database: async (prefix = 'test') => {
      const name = `${prefix.replace(/[^a-z0-9_]/g, '_')}_${process.pid}_${++made}`
      const sql = new SQL(admin, { max: 1 })
      try {
        await sql.unsafe(`CREATE DATABASE "${name}"`)
      } finally {
        await sql.close()
      }
      return `postgres://${SUPERUSER}@127.0.0.1:${port}/${name}`
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    kill: () => stop('immediate'),
    start,
    stop: () => {
      try {
        stop('fast')
      } catch {
        // Not running: killed by a test, or stopped already.
      }
      rmSync(dir, { recursive: true, force: true })
    },
    replica: async () => {
      const replicaFolder = serverFolder()
      const replicaData = join(replicaFolder.dir, 'data')
      // A base backup of the server, with what a standby needs to stream from it (-R): initdb's trust lets the loopback replicate.
      replicaFolder.run([join(bin, 'pg_basebackup'), '-h', '127.0.0.1', '-p', String(port), '-U', SUPERUSER, '-D', replicaData, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync'])
      const replicaPort = await freePort()
      const replica = control(bin, replicaFolder, replicaData, replicaPort)
      replica.start()
      const replay = async (action: 'pause' | 'resume') => {
        const sql = new SQL(`postgres://${SUPERUSER}@127.0.0.1:${replicaPort}/postgres`, { max: 1 })
        try {
          await sql.unsafe(`SELECT pg_wal_replay_${action}()`)
        } finally {
          await sql.close()
        }
      }
      return {
        port: replicaPort,
        urlOf: (url) => {
          const onReplica = new URL(url)
          onReplica.port = String(replicaPort)
          return onReplica.toString()
        },
        pauseReplay: () => replay('pause'),
        resumeReplay: () => replay('resume'),
        stop: () => {
          try {
            replica.stop('fast')
          } catch {
            // Not running.
          }
          rmSync(replicaFolder.dir, { recursive: true, force: true })
        },
      }
    },
  }
}

/** The uid and gid of the `postgres` user Debian's package creates. */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'))
  if (!line) throw new Error("there is no 'postgres' user to run the server as (Debian's postgresql package creates it)")
  const [, , uid, gid] = line.split(':')
  return { uid: Number(uid), gid: Number(gid) }
}
