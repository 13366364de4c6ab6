import { FatalError } from '../../errors.ts'

// What can go wrong with the database itself, said in one line with what to do (as storage.ts
// says it of the embedded file): it cannot be reached, refuses the login, does not exist, the
// role may not do what the stack needs, a statement ran past its time.

/** The database cannot be used; the message is one line meant for the operator. */
export class DatabaseError extends FatalError {
  override name = 'DatabaseError'
}

/** The role a database URL logs in as, for messages. */
export const roleOf = (url: string) => decodeURIComponent(new URL(url).username) || '(the default user)'

/** Bun.sql's errors: its own code, and the server's SQLSTATE as `errno`. */
type PostgresFailure = { code?: unknown; errno?: unknown; message?: unknown }

/**
 * `error` as one line about the database at `where` (host, port and database), or null when it
 * is not the database's (a bug, the node). `role` is the user the URL names.
 */
export function databaseProblem(error: unknown, where: string, role: string): string | null {
  const { code, errno, message } = (error ?? {}) as PostgresFailure
  if (typeof code !== 'string' || !code.startsWith('ERR_POSTGRES')) return null
  const said = typeof message === 'string' ? message.split('\n')[0]! : code
  if (code === 'ERR_POSTGRES_CONNECTION_REFUSED' || code === 'ERR_POSTGRES_CONNECTION_TIMEOUT' || code === 'ERR_POSTGRES_CONNECTION_CLOSED') {
    return `the database at ${where} cannot be reached (${said}): check that PostgreSQL runs there and that database.url (or STACK_DATABASE_URL) names it`
  }
  if (code.includes('TLS') || code.includes('SSL')) return `the database at ${where} refused the connection's TLS (${said}): check sslmode in database.url`
  switch (errno) {
    case '28P01':
    case '28000':
      return `the database at ${where} refused the login of role "${role}" (${said}): check the user in database.url and STACK_DATABASE_PASSWORD`
    case '3D000':
      return `the database at ${where} does not exist (${said}): create it (createdb) or name another in database.url`
    case '42501':
      return `the role "${role}" may not do this at ${where} (${said}): grant it what the stack needs (CREATE on the database, and on the schema) or name another role`
    case '57014':
      return `a statement at ${where} ran past database.statementTimeoutMs and was cancelled (${said})`
    default:
      return `the database at ${where} failed (${said})`
  }
}

/** Turns a database failure into a DatabaseError with its one line; other errors pass through. */
export function asDatabaseError(error: unknown, where: string, role: string): unknown {
  const problem = databaseProblem(error, where, role)
  return problem ? new DatabaseError(problem) : error
}
