import { describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import { ConfigError, loadConfig, parseConfig } from './load.ts'
import { ConfigSchema } from './schema.ts'

/** The problems a config text produces, or [] when it loads. */
function problems(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfig(text, '/etc/stack/stack.toml', env)
    return []
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as ConfigError).problems
  }
}

describe('defaults', () => {
  test('an empty file starts every service on its default loopback port', () => {
    const config = parseConfig('', '/srv/stack/stack.toml')
    expect(config.explorer).toMatchObject({ host: '127.0.0.1', port: 4010 })
    expect(config.exchange).toMatchObject({ host: '127.0.0.1', port: 4020 })
    expect(config.faucet).toMatchObject({ host: '127.0.0.1', port: 3000 })
    expect(config.arcade).toMatchObject({ host: '127.0.0.1', port: 4030 })
    expect(config.chain.chainId).toBe(78270)
    expect(config.dataDir).toBe('/srv/stack/data')
  })

  test("dev.artifacts: ./out and ./artifacts beside the config file by default; a list given is resolved against the file's folder", () => {
    expect(parseConfig('', '/srv/stack/stack.toml').devArtifacts).toEqual(['/srv/stack/out', '/srv/stack/artifacts'])
    expect(parseConfig('[dev]\nartifacts = ["../app/out", "/abs/artifacts"]', '/srv/stack/stack.toml').devArtifacts).toEqual(['/srv/app/out', '/abs/artifacts'])
    expect(parseConfig('[dev]\nartifacts = []', '/srv/stack/stack.toml').devArtifacts).toEqual([])
    expect(() => parseConfig('[dev]\nartifacts = "./out"', '/srv/stack/stack.toml')).toThrow(/dev\.artifacts/)
  })

  test('no file at the default path uses the defaults', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'stack-config-'))
    const config = loadConfig(undefined, {}, cwd)
    expect(config.file).toBeNull()
    expect(config.explorer.port).toBe(4010)
    expect(config.dataDir).toBe(join(cwd, 'data'))
  })

  test('a path given explicitly must exist', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'stack-config-'))
    expect(() => loadConfig('missing.toml', {}, cwd)).toThrow('missing.toml: cannot read the file: it does not exist')
  })

  test('data.dir resolves from the config file folder, not the working directory', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'stack-config-'))
    mkdirSync(join(cwd, 'conf'))
    writeFileSync(join(cwd, 'conf', 'custom.toml'), '[data]\ndir = "state"\n')
    expect(loadConfig('conf/custom.toml', {}, cwd).dataDir).toBe(join(cwd, 'conf', 'state'))
    writeFileSync(join(cwd, 'conf', 'absolute.toml'), '[data]\ndir = "/var/lib/stack"\n')
    expect(loadConfig('conf/absolute.toml', {}, cwd).dataDir).toBe('/var/lib/stack')
  })

  test('verify.compilers resolves from the config file folder; the verification bounds default to one compile of 60 s and 16 waiting', () => {
    expect(parseConfig('', '/srv/stack/stack.toml')).toMatchObject({ verifyCompilers: null, verify: { compilers: '', concurrency: 1, timeoutSeconds: 60, queue: 16 } })
    expect(parseConfig('[verify]\ncompilers = "solc"\n', '/srv/stack/stack.toml').verifyCompilers).toBe('/srv/stack/solc')
    expect(parseConfig('[verify]\ncompilers = "/opt/solc"\n', '/srv/stack/stack.toml').verifyCompilers).toBe('/opt/solc')
    expect(() => parseConfig('[verify]\nconcurrency = 0\n', null)).toThrow('verify.concurrency = 0: expected compiles run at once, an integer from 1 to 16')
  })

  test('stack.example.toml lists every key with its default value', () => {
    const example = Bun.TOML.parse(readFileSync(join(import.meta.dir, '../../stack.example.toml'), 'utf8'))
    const defaults = Value.Default(ConfigSchema, {})
    expect(example).toEqual(defaults as object)
  })
})

describe('bad files name the key path, the value and what was expected', () => {
  test('wrong type', () => {
    expect(problems('[explorer]\nport = "4010"')).toEqual([
      'explorer.port = "4010": expected an integer port from 1 to 65535 (0 picks a free port)',
    ])
  })

  test('port out of range', () => {
    expect(problems('[faucet]\nport = 70000')).toEqual([
      'faucet.port = 70000: expected an integer port from 1 to 65535 (0 picks a free port)',
    ])
  })

  test('unknown key lists the known ones', () => {
    expect(problems('[log]\nlevle = "info"')).toEqual(['log.levle: unknown key (expected one of: level)'])
    expect(problems('[explorr]\nport = 1')[0]).toMatch(/^explorr: unknown key \(expected one of: chain, .*explorer, exchange, faucet, .*arcade, etherscan\)$/)
  })

  test('a secret in the file is refused and pointed at the environment', () => {
    expect(problems('[faucet]\noperatorKey = "0xabc"')).toEqual([
      'faucet.operatorKey: secrets are never read from the config file; set FAUCET_OPERATOR_KEY in the environment',
    ])
  })

  test('enumerations and nested values', () => {
    expect(problems('[log]\nlevel = "loud"')).toEqual([
      'log.level = "loud": expected one of "trace", "debug", "info", "warn", "error", "fatal", "silent"',
    ])
    expect(problems('[explorer]\ncorsOrigins = ["https://ok.example", "ftp://no.example/x"]')).toEqual([
      'explorer.corsOrigins[1] = "ftp://no.example/x": expected an origin such as "https://example.org" (scheme and host, no path)',
    ])
    expect(problems('[chain]\nrpc = "localhost:8545"')).toEqual(['chain.rpc = "localhost:8545": expected a http or https URL'])
    expect(problems('explorer = 5')).toEqual(['explorer = 5: expected a [explorer] table'])
  })

  test('every problem is reported, not only the first', () => {
    const found = problems('[explorer]\nport = -1\ntrustedProxyHops = 99\n[exchange]\nhost = ""\n[bogus]\n')
    expect(found).toHaveLength(4)
    expect(found.join('\n')).toContain('explorer.port = -1')
    expect(found.join('\n')).toContain('explorer.trustedProxyHops = 99')
    expect(found.join('\n')).toContain('exchange.host = ""')
    expect(found.join('\n')).toContain('bogus: unknown key')
  })

  test('an address with a wrong checksum is refused at start, naming the key', () => {
    const weth = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
    const typo = weth.replace('E7734', 'e7734')
    const expected = '0x and 40 hex digits; in mixed case, a correct EIP-55 checksum'
    expect(problems(`[exchange]\nweth = "${typo}"`)).toEqual([`exchange.weth = "${typo}": expected the wrapped-ether token address (${expected})`])
    expect(problems(`[explorer]\nfeeRouter = "${typo}"`)).toEqual([`explorer.feeRouter = "${typo}": expected the fee router contract (${expected}), or "" for no fee layer`])
    expect(problems(`[[arcade.contracts]]\nroom = "dice"\naddress = "${typo}"\nabi = "Dice"`)).toEqual([`arcade.contracts[0].address = "${typo}": expected a contract address (${expected})`])
    // All lower or all upper case carries no checksum; "" is none where none is allowed; 0x is required.
    expect(problems(`[exchange]\nweth = "${weth.toLowerCase()}"\nv2Factory = "0x${weth.slice(2).toUpperCase()}"\n[faucet]\ncontract = ""`)).toEqual([])
    expect(problems(`[exchange]\nweth = "${weth.slice(2)}"`)).toHaveLength(1)
    expect(problems('[exchange]\nweth = ""')).toHaveLength(1)
  })

  test('two services on one port', () => {
    expect(problems('[arcade]\nport = 4010')).toEqual([
      'arcade.port = 4010: expected a port no other service uses (explorer.port is 4010)',
    ])
    expect(problems('[arcade]\nport = 0\n[faucet]\nport = 0')).toEqual([])
  })

  test('TOML that does not parse names the line', () => {
    expect(problems('[explorer]\nport = 4010\nhost = \n')).toEqual([
      "line 3: not valid TOML: Missing value after '='; values must be on the same line",
    ])
    expect(problems('[explorer]\nport = 1\nport = 2')[0]).toContain('not valid TOML')
  })

  test('the error message carries the file', () => {
    expect(() => parseConfig('[explorer]\nport = "x"', '/etc/stack/stack.toml')).toThrow(
      '/etc/stack/stack.toml: explorer.port = "x": expected',
    )
  })
})

describe('secrets come from the environment only', () => {
  const key = `0x${'ab'.repeat(32)}`

  test('the faucet key is read from FAUCET_OPERATOR_KEY', () => {
    expect(parseConfig('', null, { FAUCET_OPERATOR_KEY: key }).secrets.faucetKey).toBe(key as `0x${string}`)
    expect(parseConfig('', null, {}).secrets.faucetKey).toBeNull()
  })

  test('a malformed key is refused without being echoed', () => {
    const found = problems('', { FAUCET_OPERATOR_KEY: '0xnotakey-secretvalue' })
    expect(found).toEqual(['environment FAUCET_OPERATOR_KEY: expected a 32-byte hex private key starting with 0x'])
    expect(found.join()).not.toContain('secretvalue')
  })
})

describe('the database', () => {
  test('none by default: the embedded spool file', () => {
    const config = parseConfig('', null, {})
    expect(config.database).toEqual({ url: '', replicaUrl: '', schema: 'stack', poolSize: 10, statementTimeoutMs: 30_000, prepare: true, leaseMs: 5000, target: null })
  })

  test('database.url names it; where it is is said without user or password', () => {
    const config = parseConfig('[database]\nurl = "postgres://stack@db.internal:6432/chain?sslmode=require"\nschema = "testnet_1"\npoolSize = 20\nprepare = false\nleaseMs = 2000\n', null, {})
    expect(config.database.target).toEqual({
      url: 'postgres://stack@db.internal:6432/chain?sslmode=require',
      where: 'db.internal:6432/chain',
      schema: 'testnet_1',
      poolSize: 20,
      statementTimeoutMs: 30_000,
      prepare: false,
      leaseMs: 2000,
      replica: null,
    })
  })

  test('database.replicaUrl names a replica for the api role to read, with the same password; STACK_DATABASE_REPLICA_URL takes its place', () => {
    const toml = '[database]\nurl = "postgres://stack@primary:5432/chain"\nreplicaUrl = "postgres://stack@standby-1/chain?sslmode=require"\n'
    expect(parseConfig(toml, null, { STACK_DATABASE_PASSWORD: 'secret' }).database.target!.replica).toEqual({
      url: 'postgres://stack:secret@standby-1/chain?sslmode=require',
      where: 'standby-1:5432/chain',
    })
    expect(parseConfig(toml, null, { STACK_DATABASE_REPLICA_URL: 'postgres://stack@standby-2:6432/chain' }).database.target!.replica!.where).toBe('standby-2:6432/chain')
  })

  test('a replica without a database, with a password in the file, or not postgres:// is refused, the URL never echoed', () => {
    expect(problems('[database]\nreplicaUrl = "postgres://stack@standby/chain"\n')).toEqual([
      'database.replicaUrl: a replica is read beside the database it replicates: set database.url (or STACK_DATABASE_URL) too',
    ])
    expect(problems('', { STACK_DATABASE_REPLICA_URL: 'postgres://stack@standby/chain' })).toHaveLength(1)
    expect(problems('[database]\nurl = "postgres://stack@primary/chain"\nreplicaUrl = "postgres://stack:hunter2@standby/chain"\n')).toEqual([
      'database.replicaUrl: a password is never read from the config file; set STACK_DATABASE_PASSWORD in the environment',
    ])
    const fromEnv = problems('[database]\nurl = "postgres://stack@primary/chain"\n', { STACK_DATABASE_REPLICA_URL: 'mysql://u:hunter2@standby/chain' })
    expect(fromEnv).toEqual(['environment STACK_DATABASE_REPLICA_URL: expected a postgres:// URL'])
    expect(fromEnv.join()).not.toContain('hunter2')
  })

  test('STACK_DATABASE_URL takes its place, and the password comes from STACK_DATABASE_PASSWORD only', () => {
    const env = { STACK_DATABASE_URL: 'postgresql://reader@10.0.0.5/chain', STACK_DATABASE_PASSWORD: 'p@ss word' }
    const target = parseConfig('[database]\nurl = "postgres://other@elsewhere/db"\n', null, env).database.target!
    expect(target.url).toBe('postgresql://reader:p%40ss%20word@10.0.0.5/chain')
    expect(target.where).toBe('10.0.0.5:5432/chain')
    expect(target.where).not.toContain('word')
  })

  test('a password in the config file, a URL that is not postgres:// and a schema name that is not one are refused, the URL never echoed', () => {
    expect(problems('[database]\nurl = "postgres://stack:hunter2@db/chain"\n')).toEqual([
      'database.url: a password is never read from the config file; set STACK_DATABASE_PASSWORD in the environment',
    ])
    expect(problems('[database]\nurl = "mysql://db/chain"\n')[0]).toStartWith('database.url = "mysql://db/chain": expected empty')
    const fromEnv = problems('', { STACK_DATABASE_URL: 'http://user:hunter2@db/chain' })
    expect(fromEnv).toEqual(['environment STACK_DATABASE_URL: expected a postgres:// URL'])
    expect(fromEnv.join()).not.toContain('hunter2')
    expect(problems('[database]\nschema = "Stack; DROP"\n')[0]).toStartWith('database.schema = "Stack; DROP": expected the PostgreSQL schema')
  })
})
