import { FormatRegistry, Type as T, type Static, type TSchema } from '@sinclair/typebox'
import { parseConfigAddress } from '../eth/address.ts'

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

// An address is checked here, checksum included, so that a typo stops the stack at start with
// the key named instead of failing later inside viem.
FormatRegistry.Set('address', (text) => parseConfigAddress(text) !== null)
FormatRegistry.Set('address-or-none', (text) => text === '' || parseConfigAddress(text) !== null)
const ADDRESS_RULE = '0x and 40 hex digits; in mixed case, a correct EIP-55 checksum'

const address = (what: string, fallback?: string) =>
  T.String({ format: 'address', ...(fallback === undefined ? {} : { default: fallback }), description: `${what} (${ADDRESS_RULE})` })

/** An address, or "" for none; `none` says what "" means. */
const addressOrNone = (what: string, fallback: string, none: string) =>
  T.String({ format: 'address-or-none', default: fallback, description: `${what} (${ADDRESS_RULE}), or "" ${none}` })

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
      batchBlocks: T.Integer({
        minimum: 1,
        maximum: 2000,
        default: 100,
        description: 'the most blocks one request to the node may carry (requests are sized by their transactions), an integer from 1 to 2000',
      }),
      concurrency: T.Integer({
        minimum: 1,
        maximum: 32,
        default: 4,
        description: 'the most requests in flight while catching up (fewer while the node answers slowly), an integer from 1 to 32',
      }),
      pollMs: T.Integer({ minimum: 50, maximum: 60_000, default: 1000, description: 'milliseconds between head checks when no new-heads notice came, from 50 to 60000' }),
      maxReorgDepth: T.Integer({ minimum: 1, maximum: 100_000, default: 1000, description: 'the deepest reorganisation followed, in blocks, from 1 to 100000' }),
      onHistoryGap: T.Union([T.Literal('stop'), T.Literal('record')], {
        default: 'stop',
        description:
          'what the spool does at a block the node no longer has: "stop" (wait there and report it) or "record" (record the hole, say so in the log, the health and the explorer, and go on)',
      }),
    }),
    database: table('database', {
      url: T.String({
        pattern: '^(|postgres(ql)?://[^\\s]+)$',
        default: '',
        description:
          'empty (the embedded spool file under data.dir), or a postgres:// URL without a password (the password comes from STACK_DATABASE_PASSWORD; STACK_DATABASE_URL in the environment takes the place of this key; TLS through its sslmode)',
      }),
      replicaUrl: T.String({
        pattern: '^(|postgres(ql)?://[^\\s]+)$',
        default: '',
        description:
          'empty (the api role reads the database itself), or the postgres:// URL of a streaming replica of database.url for the api role to read (it still listens for new heads on the primary); no password (STACK_DATABASE_PASSWORD is used); STACK_DATABASE_REPLICA_URL in the environment takes the place of this key',
      }),
      schema: T.String({
        pattern: '^[a-z_][a-z0-9_]{0,49}$',
        default: 'stack',
        description: 'the PostgreSQL schema that holds the spool: lower-case letters, digits and _, starting with a letter or _, at most 50',
      }),
      poolSize: T.Integer({ minimum: 1, maximum: 100, default: 10, description: 'connections to the database in each instance, an integer from 1 to 100' }),
      statementTimeoutMs: T.Integer({
        minimum: 0,
        maximum: 3_600_000,
        default: 30_000,
        description: 'milliseconds after which the database cancels a statement, from 0 (none) to 3600000',
      }),
      prepare: T.Boolean({
        default: true,
        description:
          "true or false: whether the connections that read keep each statement prepared (faster reads); false behind PgBouncer's transaction mode when its max_prepared_statements is 0",
      }),
      leaseMs: T.Integer({
        minimum: 1000,
        maximum: 60_000,
        default: 5000,
        description: "milliseconds after an indexer's last heartbeat (it beats five times in them) before a standby may take its lease over, from 1000 to 60000",
      }),
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
    // Verification of contracts (docs/verification.md): where compilers are found besides the
    // bundled solc-js, svm's folders and hardhat's cache, and the bounds on compiling.
    verify: table('verify', {
      compilers: T.String({ default: '', description: 'a folder of solc compilers (relative to the config file), or "" for none' }),
      concurrency: T.Integer({ minimum: 1, maximum: 16, default: 1, description: 'compiles run at once, an integer from 1 to 16' }),
      timeoutSeconds: T.Integer({ minimum: 1, maximum: 3600, default: 60, description: 'seconds a compile may take before it is killed, an integer from 1 to 3600' }),
      queue: T.Integer({ minimum: 0, maximum: 10_000, default: 16, description: 'verifications that may wait for a compile, an integer from 0 to 10000' }),
    }),
    registry: table('registry', {
      source: T.String({
        minLength: 1,
        default: 'registry',
        description: 'the registry repository: a folder (relative to the config file; while it does not exist, the registry built into stack serves) or an https:// raw base URL',
      }),
      network: T.String({ pattern: '^[a-z0-9-]{1,32}$', default: 'testnet', description: 'a network folder name such as "testnet"' }),
      rawBase: T.String({
        pattern: '^https://[^\\s]+[^/]$',
        default: 'https://raw.githubusercontent.com/stack-chain/registry/main',
        description: 'the https:// raw base URL that logoURI and tag logo values start with (no trailing slash)',
      }),
      refreshSeconds: T.Integer({ minimum: 1, maximum: 86_400, default: 600, description: 'seconds between fetches, an integer from 1 to 86400' }),
    }),
    explorer: table('explorer', {
      host: host('127.0.0.1'),
      port: port(4010),
      corsOrigins: origins,
      trustedProxyHops,
      rateLimitPerMinute: T.Integer({ minimum: 1, maximum: 1_000_000_000, default: 300, description: 'requests one client may make per wall-clock minute, an integer from 1 to 1000000000' }),
      liveSeconds: T.Integer({ minimum: 1, maximum: 86_400, default: 300, description: 'seconds before a /live stream is closed, an integer from 1 to 86400' }),
      nodeTimeoutMs: T.Integer({ minimum: 50, maximum: 30_000, default: 1500, description: 'milliseconds a live read from the node may take, an integer from 50 to 30000' }),
      callGasCap: T.Integer({ minimum: 21_000, maximum: 1_000_000_000, default: 50_000_000, description: 'the gas a read of a contract (/api/address/{address}/call) may use, an integer from 21000 to 1000000000' }),
      // The name service and the fee layer. The defaults are the dev chain's fixed addresses
      // (src/devnet/deploy.ts, DEPLOY_ORDER); "" says the chain has none.
      nameRegistry: addressOrNone('the name registry contract', '0x9A676e781A523b5d0C0e43731313A708CB607508', 'for no name service'),
      feeRouter: addressOrNone('the fee router contract', '0x0DCd1Bf9A1b36cE34237eEaFef220932846BCD82', 'for no fee layer'),
    }),
    exchange: table('exchange', {
      host: host('127.0.0.1'),
      port: port(4020),
      // The contracts the index reads. The defaults are the dev chain's fixed addresses (its
      // deploy order never changes, so they are the ones data/l2-addresses.json lists).
      // The factories decide what the streams derive; the two tokens only what is priced.
      v2Factory: address('the constant-product factory address', '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'),
      v3Factory: address('the concentrated-liquidity factory address', '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707'),
      weth: address('the wrapped-ether token address', '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'),
      // Dollar figures come from a price feed, never from the exchange's own reserves (docs/exchange.md).
      ethUsdFeed: addressOrNone('the ETH/USD price feed (a Chainlink AggregatorV3Interface)', '0x959922bE3CAee4b8Cd9a407cc3ac1C251C2007B1', 'for no dollar figures'),
      ethUsdMaxAgeSeconds: T.Integer({
        minimum: 1,
        maximum: 31_536_000,
        default: 3600,
        description: "the oldest feed answer used, in seconds of chain time before the node's latest block, an integer from 1 to 31536000",
      }),
    }),
    faucet: table('faucet', {
      host: host('127.0.0.1'),
      port: port(3000),
      corsOrigins: origins,
      trustedProxyHops,
      contract: addressOrNone('a faucet contract address', '', 'to take it from the deployment manifest'),
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
      // The dev chain's price feed gets a new round whenever its answer is older than half
      // exchange.ethUsdMaxAgeSeconds of chain time; pinned, each round repeats the last answer.
      pinEthUsd: T.Boolean({ default: false, description: 'true or false' }),
      // A chain that outlives a restart: anvil's --state (loaded at start, saved at stop).
      state: T.String({ default: '', description: 'a file path (relative to the config file) where the dev chain is saved on stop and loaded on start, or "" for a fresh chain every start' }),
      // Local build artifacts: forge's out/ and hardhat's artifacts/ (build-info/ included).
      artifacts: T.Array(T.String({ minLength: 1, maxLength: 4096, description: 'a folder path (relative to the config file)' }), {
        maxItems: 32,
        default: ['./out', './artifacts'],
        description: 'a list of at most 32 folders (relative to the config file) of forge or hardhat build artifacts',
      }),
      // A chain that starts from another: anvil's --fork-url and --fork-block-number.
      fork: table('dev.fork', {
        url: T.String({ pattern: '^(https?://[^\\s]+)?$', default: '', description: 'the JSON-RPC URL (http or https) of the chain to fork, or "" for none' }),
        block: T.Integer({ minimum: 0, default: 0, description: "the block to fork at, an integer block number (0: the fork's latest block)" }),
      }),
    }),
    arcade: table('arcade', {
      host: host('127.0.0.1'),
      port: port(4030),
      corsOrigins: origins,
      trustedProxyHops,
      rooms: T.Array(
        T.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,31}$', description: 'a room name: 1 to 32 of a-z, 0-9, "_" and "-", starting with a letter or digit' }),
        {
          minItems: 1,
          maxItems: 64,
          uniqueItems: true,
          default: ['coinflip', 'dice', 'crash', 'roulette', 'slots', 'plinko', 'mines', 'lottery'],
          description: 'a list of 1 to 64 distinct room names such as ["coinflip", "dice"]',
        },
      ),
      // Which contracts each room relays, decoded with which ABI. The defaults are the dev
      // chain's fixed addresses (src/devnet/deploy.ts, DEPLOY_ORDER).
      contracts: T.Array(
        T.Object(
          {
            room: T.String({ minLength: 1, description: 'the name of a room listed in arcade.rooms' }),
            address: address('a contract address'),
            // Any name here: the config knows no service. The arcade checks the name against the
            // ABIs it carries when the services are built, before any port opens.
            abi: T.String({ minLength: 1, description: 'the name of an ABI the arcade decodes its logs with, such as "CoinFlip"' }),
          },
          { additionalProperties: false, description: 'a table with room, address and abi' },
        ),
        {
          // Each room: the bank (its events about other games are not relayed there) and its game.
          default: [
            { room: 'coinflip', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'coinflip', address: '0xA51c1fc2f0D1a1b8494Ed1FE312d7C3a78Ed91C0', abi: 'CoinFlip' },
            { room: 'dice', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'dice', address: '0x9A9f2CCfdE556A7E9Ff0848998Aa4a0CFD8863AE', abi: 'Dice' },
            { room: 'crash', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'crash', address: '0x68B1D87F95878fE05B998F19b66F4baba5De1aed', abi: 'Crash' },
            { room: 'roulette', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'roulette', address: '0x3Aa5ebB10DC797CAC828524e59A333d0A371443c', abi: 'Roulette' },
            { room: 'slots', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'slots', address: '0xc6e7DF5E7b4f2A278906862b61205850344D4e7d', abi: 'Slots' },
            { room: 'plinko', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'plinko', address: '0x59b670e9fA9D0A427751Af201D676719a970857b', abi: 'Plinko' },
            { room: 'mines', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'mines', address: '0x4ed7c70F96B99c776995fB64377f0d4aB3B0e1C1', abi: 'Mines' },
            { room: 'lottery', address: '0xB7f8BC63BbcaD18155201308C8f3540b07f84F5e', abi: 'ArcadeBank' },
            { room: 'lottery', address: '0x322813Fd9A801c5507c9de605d63CEA4f2CE6c44', abi: 'Lottery' },
          ],
          description: 'a list of [[arcade.contracts]] tables',
        },
      ),
      maxSockets: T.Integer({ minimum: 1, maximum: 65536, default: 256, description: 'open sockets allowed in total, an integer from 1 to 65536' }),
      maxSocketsPerAddress: T.Integer({ minimum: 1, maximum: 65536, default: 8, description: 'open sockets allowed from one client address, an integer from 1 to 65536' }),
      maxFrameBytes: T.Integer({ minimum: 128, maximum: 1048576, default: 4096, description: 'the largest frame a client may send, in bytes, from 128 to 1048576' }),
      messagesPerSecond: T.Number({ exclusiveMinimum: 0, maximum: 10000, default: 20, description: 'frames a client may send per second on average, above 0 and at most 10000' }),
      messageBurst: T.Integer({ minimum: 1, maximum: 100000, default: 40, description: 'frames a client may send at once before the rate applies, an integer from 1 to 100000' }),
      maxBacklogBytes: T.Integer({ minimum: 4096, maximum: 67108864, default: 524288, description: 'bytes a socket may be behind before it is cut, an integer from 4096 to 67108864' }),
      readyMaxAgeSeconds: T.Number({ exclusiveMinimum: 0, maximum: 3600, default: 5, description: 'seconds after which the last applied mini-block is too old to be ready, above 0 and at most 3600' }),
      catchUpBlocks: T.Integer({ minimum: 0, maximum: 10000, default: 64, description: 'missed mini-blocks fetched after a gap before skipping to the head, an integer from 0 to 10000' }),
      reconnectMinMs: T.Integer({ minimum: 10, maximum: 60000, default: 250, description: 'milliseconds before the first reconnect to the node socket, from 10 to 60000' }),
      reconnectMaxMs: T.Integer({ minimum: 10, maximum: 600000, default: 5000, description: 'the longest wait between reconnects to the node socket, in milliseconds, from 10 to 600000' }),
    }),
    // The Etherscan-compatible API (and Sourcify's under /sourcify/): a listener of its own, since
    // the explorer answers every POST 405 and a verification is a POST.
    etherscan: table('etherscan', {
      host: host('127.0.0.1'),
      port: port(4040),
      corsOrigins: origins,
      trustedProxyHops,
      rateLimitPerMinute: T.Integer({ minimum: 1, maximum: 1_000_000_000, default: 300, description: 'requests one client may make per wall-clock minute, an integer from 1 to 1000000000' }),
    }),
  },
  { additionalProperties: false, description: 'a TOML document of tables' },
)

export type ConfigFile = Static<typeof ConfigSchema>

export const serviceNames = ['explorer', 'exchange', 'faucet', 'arcade', 'etherscan'] as const
export type ServiceName = (typeof serviceNames)[number]
