import { Type as T, type Static, type TSchema } from '@sinclair/typebox'

// Every key has a default, so an empty file (or none) starts a working local stack.
// `description` is what an error message says was expected.

const table = <P extends Record<string, TSchema>>(name: string, properties: P) =>
  T.Object(properties, { additionalProperties: false, default: {}, description: `a [${name}] table` })

const host = (fallback: string) =>
  T.String({ minLength: 1, default: fallback, description: 'a host name or IP address to listen on' })

const port = (fallback: number) =>
  T.Integer({
    minimum: 0,
    maximum: 65535,
    default: fallback,
    description: 'an integer port from 1 to 65535 (0 picks a free port)',
  })

const origins = T.Array(
  T.String({ pattern: '^https?://[^/\\s]+$', description: 'an origin such as "https://example.org" (scheme and host, no path)' }),
  { default: [], description: 'a list of origins such as ["https://example.org"]' },
)

const trustedProxyHops = T.Integer({
  minimum: 0,
  maximum: 16,
  default: 0,
  description: 'the number of trusted proxies in front of the service, an integer from 0 to 16',
})

const url = (schemes: string[], fallback: string) =>
  T.String({
    pattern: `^(${schemes.join('|')})://[^\\s]+$`,
    default: fallback,
    description: `a ${schemes.join(' or ')} URL`,
  })

const etherAmount = (fallback: string, what: string) =>
  T.String({
    pattern: '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,18})?$',
    default: fallback,
    description: `${what} as a decimal string such as "1" or "0.5" (never a bare number: amounts are exact)`,
  })

export const ConfigSchema = T.Object(
  {
    chain: table('chain', {
      rpc: url(['http', 'https'], 'http://127.0.0.1:8545'),
      ws: url(['ws', 'wss'], 'ws://127.0.0.1:8545'),
      chainId: T.Integer({ minimum: 1, default: 78270, description: 'a positive integer chain id' }),
    }),
    spool: table('spool', {
      startBlock: T.Integer({ minimum: 0, default: 0, description: 'the first block to copy, an integer from 0' }),
      batchBlocks: T.Integer({ minimum: 1, maximum: 2000, default: 100, description: 'blocks per fetch and per write, an integer from 1 to 2000' }),
      concurrency: T.Integer({ minimum: 1, maximum: 32, default: 4, description: 'fetches in flight while catching up, an integer from 1 to 32' }),
      pollMs: T.Integer({ minimum: 50, maximum: 60_000, default: 1000, description: 'milliseconds between head checks when no new-heads notice came, from 50 to 60000' }),
      maxReorgDepth: T.Integer({ minimum: 1, maximum: 100_000, default: 1000, description: 'the deepest reorganisation followed, in blocks, from 1 to 100000' }),
    }),
    data: table('data', {
      dir: T.String({
        minLength: 1,
        default: 'data',
        description: 'a folder path, relative to the config file or absolute',
      }),
    }),
    log: table('log', {
      level: T.Union(
        ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'].map((level) => T.Literal(level)),
        { default: 'info', description: 'one of "trace", "debug", "info", "warn", "error", "fatal", "silent"' },
      ),
    }),
    explorer: table('explorer', {
      host: host('127.0.0.1'),
      port: port(4010),
      corsOrigins: origins,
      trustedProxyHops,
    }),
    exchange: table('exchange', {
      host: host('127.0.0.1'),
      port: port(4020),
    }),
    faucet: table('faucet', {
      host: host('127.0.0.1'),
      port: port(3000),
      corsOrigins: origins,
      trustedProxyHops,
      contract: T.String({
        pattern: '^(0x[0-9a-fA-F]{40})?$',
        default: '',
        description: 'a faucet contract address (0x and 40 hex digits), or "" to take it from the deployment manifest',
      }),
      allTimeBudget: T.Integer({
        minimum: 1,
        default: 100000,
        description: 'the number of drips the faucet may ever pay, a positive integer',
      }),
      receiptTimeoutMs: T.Integer({
        minimum: 100,
        maximum: 60000,
        default: 3000,
        description: 'milliseconds to wait for a drip receipt, an integer from 100 to 60000',
      }),
      journalMaxBytes: T.Integer({
        minimum: 4096,
        default: 1048576,
        description: 'the size in bytes at which the quota journal starts a new file, an integer of at least 4096',
      }),
      journalMaxAgeHours: T.Integer({
        minimum: 1,
        maximum: 8760,
        default: 24,
        description: 'the age in hours at which the quota journal starts a new file, an integer from 1 to 8760',
      }),
    }),
    dev: table('dev', {
      host: host('127.0.0.1'),
      port: T.Integer({
        minimum: 0,
        maximum: 65535,
        default: 8545,
        description: "the local chain's JSON-RPC port, an integer from 1 to 65535 (0 picks a free port)",
      }),
      blockTime: T.Integer({
        minimum: 1,
        maximum: 3600,
        default: 1,
        description: 'seconds between blocks, an integer from 1 to 3600',
      }),
      seed: T.Boolean({ default: true, description: 'true or false' }),
      faucetDripEth: etherAmount('1', 'ether per drip'),
      faucetDripBx: etherAmount('100', 'BX per drip'),
      faucetFundEth: etherAmount('1000', 'ether given to the faucet'),
      faucetFundBx: etherAmount('1000000', 'BX given to the faucet'),
    }),
    arcade: table('arcade', {
      host: host('127.0.0.1'),
      port: port(4030),
      corsOrigins: origins,
      trustedProxyHops,
    }),
  },
  { additionalProperties: false, description: 'a TOML document of tables' },
)

export type ConfigFile = Static<typeof ConfigSchema>

export const serviceNames = ['explorer', 'exchange', 'faucet', 'arcade'] as const
export type ServiceName = (typeof serviceNames)[number]
