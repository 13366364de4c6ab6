import { parseArgs } from 'node:util'
import { FatalError, firstLine } from '../errors.ts'
import { ROLES, type Role } from '../spool/spool.ts'

export const USAGE = `stack: the explorer, exchange index, faucet, arcade and Etherscan-compatible API of chain 78270, on loopback

Usage:
  stack [start] [--config FILE] [--json] [--role all|indexer|api]
                                  run the services against the node in the config; with a
                                  database, --role indexer only follows the node and derives (one
                                  writes, another stands by), --role api only serves
  stack dev [--config FILE] [--json]
                                  run a local chain and the services against it
  stack status [--config FILE] [--json | --env]
                                  where the running stack answers, and how it is
  stack reset [--config FILE]     take the running stack dev's chain back to right after deploy
                                  and seed, and wait until every service has followed
  stack db import [--config FILE]
                                  copy the spool under data.dir into the empty PostgreSQL schema
                                  database.url names (the chain is not read again)
  stack validate [PATH] [--network NAME] [--base REF] [--rpc URL] [--raw-base URL]
                                  check the token list and tag registry (default ./registry)
  stack --help                    print this text
  stack --version                 print the version

Options:
  -c, --config FILE   the config file (default: ./stack.toml when present, else built-in defaults)
      --json          start, dev: the log goes to stderr, and stdout gets one JSON line, the
                      status, once the stack is ready; status: the status as JSON
      --env           status: KEY=value lines a shell can source

Exit codes: 0 done (status: running, every service answering), 1 failed (status: a service
does not answer), 2 usage, 3 no stack running (status, reset).

Environment:
  FAUCET_OPERATOR_KEY      the faucet operator's private key (never read from the config file)
  STACK_DATABASE_URL       a postgres:// URL in place of database.url
  STACK_DATABASE_PASSWORD  the database's password (never read from the config file)
`

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'start'; config: string | undefined; json: boolean; role: Role }
  | { kind: 'dev'; config: string | undefined; json: boolean }
  | { kind: 'status'; config: string | undefined; format: 'text' | 'json' | 'env' }
  | { kind: 'reset'; config: string | undefined }
  | { kind: 'validate'; args: string[] }
  | { kind: 'db-import'; config: string | undefined }

/** A command line that does not parse; the CLI prints the message and the usage, and exits 2. */
export class UsageError extends FatalError {
  override name = 'UsageError'
}

const COMMANDS = new Set(['start', 'dev', 'status', 'reset'])

export function parseCommand(argv: string[]): Command {
  // The registry validator has options of its own: everything after `validate` is its.
  if (argv[0] === 'validate') return { kind: 'validate', args: argv.slice(1) }
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: 'string', short: 'c' },
        json: { type: 'boolean' },
        env: { type: 'boolean' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    })
  } catch (error) {
    throw new UsageError(firstLine(error))
  }
  const { values, positionals } = parsed
  if (values.help) return { kind: 'help' }
  if (values.version) return { kind: 'version' }
  const [name = 'start', ...rest] = positionals
  if (name === 'db') {
    if (rest[0] !== 'import') throw new UsageError(rest[0] === undefined ? "db needs a command: 'stack db import'" : `unknown db command '${rest[0]}'`)
    if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}'`)
    if (values.json || values.env || values.role !== undefined) throw new UsageError(`--${values.json ? 'json' : values.env ? 'env' : 'role'} is not an option of db import`)
    if (values.config === '') throw new UsageError('--config needs a file path')
    return { kind: 'db-import', config: values.config }
  }
  if (!COMMANDS.has(name)) throw new UsageError(`unknown command '${name}'`)
  if (rest.length > 0) throw new UsageError(`unexpected argument '${rest[0]}'`)
  if (values.config === '') throw new UsageError('--config needs a file path')
  const config = values.config
  if (values.env && name !== 'status') throw new UsageError(`--env is an option of status, not of ${name}`)
  if (values.role !== undefined && name !== 'start') throw new UsageError(`--role is an option of start, not of ${name}`)
  if (values.role !== undefined && !(ROLES as readonly string[]).includes(values.role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}, not '${values.role}'`)
  if (values.json && name === 'reset') throw new UsageError('--json is not an option of reset')
  if (name === 'status') {
    if (values.json && values.env) throw new UsageError('--json and --env: choose one')
    return { kind: 'status', config, format: values.json ? 'json' : values.env ? 'env' : 'text' }
  }
  if (name === 'reset') return { kind: 'reset', config }
  if (name === 'dev') return { kind: 'dev', config, json: values.json === true }
  return { kind: 'start', config, json: values.json === true, role: (values.role ?? 'all') as Role }
}
