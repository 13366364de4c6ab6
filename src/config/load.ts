import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import { Value } from '@sinclair/typebox/value'
import { ConfigSchema, serviceNames, type ConfigFile } from './schema.ts'
import { FatalError } from '../errors.ts'

export const DEFAULT_CONFIG_FILE = 'stack.toml'

/** Secrets come from the environment only; they never appear in the config file or a log line. */
export const SECRET_ENV = { faucetKey: 'FAUCET_OPERATOR_KEY', databasePassword: 'STACK_DATABASE_PASSWORD' } as const

/** The database's URL from the environment, in place of `database.url` (a name no other program sets). */
export const DATABASE_URL_ENV = 'STACK_DATABASE_URL'

/** Its read replica's URL from the environment, in place of `database.replicaUrl`. */
export const REPLICA_URL_ENV = 'STACK_DATABASE_REPLICA_URL'

export type Secrets = { faucetKey: `0x${string}` | null }

/** The database the spool lives in, when not the embedded file. */
export type DatabaseTarget = {
  /** The URL to connect with, the password from the environment in it: never logged. */
  url: string
  /** Where it is, for messages and logs: host, port and database, no user or password. */
  where: string
  schema: string
  poolSize: number
  statementTimeoutMs: number
  /** Whether the pools that read keep their statements prepared (off behind a pooler that cannot keep them). */
  prepare: boolean
  /** How long after an indexer's last heartbeat a standby may take its lease over. */
  leaseMs: number
  /** A streaming replica of the database the api role reads from (it listens on the primary); null to read the primary. */
  replica: { url: string; where: string } | null
}

export type Config = ConfigFile & {
  /** Absolute path of the file read, or null when the defaults were used. */
  file: string | null
  /** `data.dir` resolved to an absolute path (compiled binaries must not rely on the bundle's path). */
  dataDir: string
  /** `dev.state` resolved to an absolute path the same way; null without one. */
  devState: string | null
  /** `verify.compilers` resolved to an absolute path the same way; null without one. */
  verifyCompilers: string | null
  /** `dev.artifacts` resolved to absolute paths the same way. */
  devArtifacts: string[]
  secrets: Secrets
  /** The PostgreSQL database `database.url` or STACK_DATABASE_URL names; null for the embedded spool file. */
  database: ConfigFile['database'] & { target: DatabaseTarget | null }
}

/** A config that cannot be used; `problems` lists every one found, not only the first. */
export class ConfigError extends FatalError {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(problems.map((problem) => `${source}: ${problem}`).join('\n'))
    this.name = 'ConfigError'
  }
}

/**
 * Reads the config file. With no path, `stack.toml` in the working directory is used when it
 * exists and the defaults otherwise; a path given explicitly must exist.
 */
export function loadConfig(path: string | undefined, env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const file = resolve(cwd, path ?? DEFAULT_CONFIG_FILE)
  if (!existsSync(file)) {
    if (path !== undefined) throw new ConfigError(path, ['cannot read the file: it does not exist'])
    return parseConfig('', null, env, cwd)
  }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(path ?? DEFAULT_CONFIG_FILE, [`cannot read the file: ${(error as Error).message}`])
  }
  return parseConfig(text, file, env, cwd)
}

/** Parses and checks config text; `file` is where it came from (null for built-in defaults). */
export function parseConfig(text: string, file: string | null, env: Record<string, string | undefined> = {}, cwd = process.cwd()): Config {
  const source = file ?? 'config'
  let raw: unknown
  try {
    raw = Bun.TOML.parse(text)
  } catch (error) {
    throw new ConfigError(source, [tomlProblem(text, error)])
  }

  const value = Value.Default(ConfigSchema, Value.Clone(raw)) as ConfigFile
  const problems = schemaProblems(value)
  if (problems.length === 0) problems.push(...portCollisions(value), ...devChainProblems(value))
  const secrets = readSecrets(env, problems)
  const target = problems.length === 0 ? databaseTarget(value.database, env, problems) : null
  if (problems.length > 0) throw new ConfigError(source, problems)

  const base = file ? dirname(file) : cwd
  return {
    ...value,
    file,
    dataDir: isAbsolute(value.data.dir) ? value.data.dir : resolve(base, value.data.dir),
    devState: value.dev.state === '' ? null : resolve(base, value.dev.state),
    verifyCompilers: value.verify.compilers === '' ? null : resolve(base, value.verify.compilers),
    devArtifacts: value.dev.artifacts.map((folder) => resolve(base, folder)),
    secrets,
    database: { ...value.database, target },
  }
}

/**
 * The database of `database.url`, or of STACK_DATABASE_URL in its place, with the password of
 * STACK_DATABASE_PASSWORD; null when neither names one. A password written in the config file
 * is refused: like the faucet's key, it comes from the environment only.
 */
function databaseTarget(database: ConfigFile['database'], env: Record<string, string | undefined>, problems: string[]): DatabaseTarget | null {
  const password = env[SECRET_ENV.databasePassword]
  const primary = postgresUrl({ key: 'database.url', env: DATABASE_URL_ENV }, database.url, env, password, problems)
  if (!primary) {
    if (problems.length === 0 && (database.replicaUrl !== '' || (env[REPLICA_URL_ENV]?.trim() ?? '') !== '')) {
      problems.push('database.replicaUrl: a replica is read beside the database it replicates: set database.url (or STACK_DATABASE_URL) too')
    }
    return null
  }
  const replica = postgresUrl({ key: 'database.replicaUrl', env: REPLICA_URL_ENV }, database.replicaUrl, env, password, problems)
  if (problems.length > 0) return null
  return {
    ...primary,
    schema: database.schema,
    poolSize: database.poolSize,
    statementTimeoutMs: database.statementTimeoutMs,
    prepare: database.prepare,
    leaseMs: database.leaseMs,
    replica,
  }
}

/**
 * A database's URL from the environment variable `names.env` or, when that is unset, from the
 * config key `names.key`, with the password of STACK_DATABASE_PASSWORD (the replica of a
 * database has the same roles); null when neither names one, or when it is not one (said in
 * `problems`, never echoing the value: it may hold a password).
 */
function postgresUrl(names: { key: string; env: string }, configured: string, env: Record<string, string | undefined>, password: string | undefined, problems: string[]): { url: string; where: string } | null {
  const fromEnv = env[names.env]?.trim() ?? ''
  const text = fromEnv !== '' ? fromEnv : configured
  if (text === '') return null
  let url: URL
  try {
    url = new URL(text)
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('not postgres')
  } catch {
    problems.push(fromEnv !== '' ? `environment ${names.env}: expected a postgres:// URL` : `${names.key}: expected a postgres:// URL`)
    return null
  }
  if (fromEnv === '' && url.password !== '') {
    problems.push(`${names.key}: a password is never read from the config file; set ${SECRET_ENV.databasePassword} in the environment`)
    return null
  }
  if (password) url.password = encodeURIComponent(password)
  const name = decodeURIComponent(url.pathname.slice(1)) || "(the user's default database)"
  return { url: url.toString(), where: `${url.hostname}:${url.port || '5432'}/${name}` }
}

function tomlProblem(text: string, error: unknown): string {
  const message = String((error as Error)?.message ?? error).replace(/^TOML Parse error:\s*/, '')
  // Bun's TOML errors carry no position: the first line at which a prefix of the text fails
  // with the same message is where the problem is.
  const lines = text.split('\n')
  for (let end = 1; end <= Math.min(lines.length, 2000); end++) {
    try {
      Bun.TOML.parse(`${lines.slice(0, end).join('\n')}\n`)
    } catch (prefixError) {
      if ((prefixError as Error).message === (error as Error).message) return `line ${end}: not valid TOML: ${message}`
    }
  }
  return `not valid TOML: ${message}`
}

function schemaProblems(value: unknown): string[] {
  const byPath = new Map<string, string>()
  for (const error of Value.Errors(ConfigSchema, value)) {
    if (!byPath.has(error.path)) byPath.set(error.path, describe(error))
  }
  return [...byPath.values()]
}

function describe(error: ValueError): string {
  const key = keyPath(error.path)
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const name = error.path.split('/').pop() ?? ''
    if (/key|secret|password|mnemonic/i.test(name)) {
      return `${key}: secrets are never read from the config file; set ${SECRET_ENV.faucetKey} in the environment`
    }
    const known = Object.keys((error.schema as { properties?: object }).properties ?? {})
    return `${key}: unknown key (expected one of: ${known.join(', ')})`
  }
  const expected = (error.schema as { description?: string }).description ?? error.message.toLowerCase()
  return `${key} = ${show(error.value)}: expected ${expected}`
}

/** `/explorer/corsOrigins/0` → `explorer.corsOrigins[0]` */
function keyPath(pointer: string): string {
  const parts = pointer.split('/').slice(1)
  if (parts.length === 0) return '(document)'
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '')
}

function show(value: unknown): string {
  if (value instanceof Date) return value.toISOString()
  const text = JSON.stringify(value)
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function portCollisions(config: ConfigFile): string[] {
  const problems: string[] = []
  const taken = new Map<string, string>()
  for (const name of [...serviceNames, 'dev'] as const) {
    const { host, port } = config[name]
    if (port === 0) continue
    const owner = taken.get(`${host}:${port}`)
    if (owner) problems.push(`${name}.port = ${port}: expected a port no other service uses (${owner}.port is ${port})`)
    else taken.set(`${host}:${port}`, name)
  }
  return problems
}

/** A chain loaded from a saved state is not also a fork of another (anvil would load the state over the fork). */
function devChainProblems(config: ConfigFile): string[] {
  const { state, fork } = config.dev
  if (state !== '' && fork.url !== '') return [`dev.state = ${show(state)}: expected no dev.fork.url beside it (a saved chain or a fork, not both)`]
  if (fork.block !== 0 && fork.url === '') return [`dev.fork.block = ${fork.block}: expected a dev.fork.url to fork at that block`]
  return []
}

function readSecrets(env: Record<string, string | undefined>, problems: string[]): Secrets {
  const key = env[SECRET_ENV.faucetKey]?.trim()
  if (!key) return { faucetKey: null }
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) {
    // Never echo the value: it is meant to be a private key.
    problems.push(`environment ${SECRET_ENV.faucetKey}: expected a 32-byte hex private key starting with 0x`)
    return { faucetKey: null }
  }
  return { faucetKey: key as `0x${string}` }
}
